// Every EVIDENCE relationship from a Fact to a Passage, with its properties, for export.
MATCH (a:Fact)-[r:EVIDENCE]->(b:Passage)
RETURN a.id AS `from`, b.id AS `to`, r.how AS how
ORDER BY `from`, `to`, how
