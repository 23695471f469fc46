// Every SUPERSEDES link into a fact: the newer fact, or sentence of free text, replaces it.
MATCH (n:Fact:Passage)-[s:SUPERSEDES]->(o:Fact)
RETURN o.id AS older, n.id AS newer, s.day AS day, s.cue AS cue, n.text AS newer_text,
       n.path AS newer_path, n.line_start AS newer_line_start, n.line_end AS newer_line_end
ORDER BY older, newer
