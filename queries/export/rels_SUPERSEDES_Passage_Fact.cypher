// Every SUPERSEDES relationship from a Passage to a Fact, with its properties, for export.
MATCH (a:Passage)-[r:SUPERSEDES]->(b:Fact)
RETURN a.id AS `from`, b.id AS `to`, r.day AS day, r.cue AS cue
ORDER BY `from`, `to`, day, cue
