// The passages just before and after the given passages in their file (reading order).
MATCH (a:Passage)-[:NEXT]-(b:Passage)
WHERE a.id IN $ids
RETURN a.id AS id, b.id AS neighbor
