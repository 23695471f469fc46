// Every IN relationship from a Passage to a Source, for export.
MATCH (a:Passage)-[r:`IN`]->(b:Source)
RETURN a.id AS `from`, b.path AS `to`
ORDER BY `from`, `to`
