// Every NEXT relationship from a Passage to a Passage, for export.
MATCH (a:Passage)-[r:NEXT]->(b:Passage)
RETURN a.id AS `from`, b.id AS `to`
ORDER BY `from`, `to`
