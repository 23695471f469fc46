// Every SUPERSEDES link between facts: the newer fact replaces the older one.
MATCH (n:Fact)-[s:SUPERSEDES]->(o:Fact)
RETURN o.id AS older, n.id AS newer, s.day AS day, s.cue AS cue
ORDER BY older, newer
