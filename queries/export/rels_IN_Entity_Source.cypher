// Every IN relationship from an Entity to a Source, for export.
MATCH (a:Entity)-[r:`IN`]->(b:Source)
RETURN a.slug AS `from`, b.path AS `to`
ORDER BY `from`, `to`
