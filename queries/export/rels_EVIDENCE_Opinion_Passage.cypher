// Every EVIDENCE relationship from an Opinion to a Passage, with its properties, for export.
MATCH (a:Opinion)-[r:EVIDENCE]->(b:Passage)
RETURN a.id AS `from`, b.id AS `to`, r.how AS how
ORDER BY `from`, `to`, how
