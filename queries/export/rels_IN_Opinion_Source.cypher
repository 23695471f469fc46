// Every IN relationship from an Opinion to a Source, for export.
MATCH (a:Opinion)-[r:`IN`]->(b:Source)
RETURN a.id AS `from`, b.path AS `to`
ORDER BY `from`, `to`
