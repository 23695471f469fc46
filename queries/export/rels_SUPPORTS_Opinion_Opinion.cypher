// Every SUPPORTS relationship from an Opinion to an Opinion, with its properties, for export.
MATCH (a:Opinion)-[r:SUPPORTS]->(b:Opinion)
RETURN a.id AS `from`, b.id AS `to`, r.weight AS weight, r.day AS day, r.reason AS reason
ORDER BY `from`, `to`, weight, day, reason
