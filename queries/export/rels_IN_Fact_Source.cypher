// Every IN relationship from a Fact to a Source, for export.
MATCH (a:Fact)-[r:`IN`]->(b:Source)
RETURN a.id AS `from`, b.path AS `to`
ORDER BY `from`, `to`
