// Every MENTIONS relationship from an Opinion to an Entity, with its properties, for export.
MATCH (a:Opinion)-[r:MENTIONS]->(b:Entity)
RETURN a.id AS `from`, b.slug AS `to`, r.how AS how
ORDER BY `from`, `to`, how
