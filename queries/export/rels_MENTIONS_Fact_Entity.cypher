// Every MENTIONS relationship from a Fact to an Entity, with its properties, for export.
MATCH (a:Fact)-[r:MENTIONS]->(b:Entity)
RETURN a.id AS `from`, b.slug AS `to`, r.how AS how
ORDER BY `from`, `to`, how
