// Every SUPPORTS relationship from a Fact to an Opinion, with its properties, for export.
MATCH (a:Fact)-[r:SUPPORTS]->(b:Opinion)
RETURN a.id AS `from`, b.id AS `to`, r.weight AS weight, r.day AS day, r.reason AS reason
ORDER BY `from`, `to`, weight, day, reason
