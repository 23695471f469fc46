// Every MENTIONS relationship from a Passage to an Entity, with its properties, for export.
MATCH (a:Passage)-[r:MENTIONS]->(b:Entity)
RETURN a.id AS `from`, b.slug AS `to`, r.how AS how
ORDER BY `from`, `to`, how
