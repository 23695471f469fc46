// Every SUPERSEDES relationship from an Opinion to an Opinion, with its properties, for export.
MATCH (a:Opinion)-[r:SUPERSEDES]->(b:Opinion)
RETURN a.id AS `from`, b.id AS `to`, r.day AS day, r.cue AS cue
ORDER BY `from`, `to`, day, cue
