// Every ABOUT relationship from an Opinion to an Entity, for export.
MATCH (a:Opinion)-[r:ABOUT]->(b:Entity)
RETURN a.id AS `from`, b.slug AS `to`
ORDER BY `from`, `to`
