// EVIDENCE links touching the given nodes, in either direction.
MATCH (f:Fact:Opinion)-[r:EVIDENCE]->(p:Passage)
WHERE f.id IN $ids OR p.id IN $ids
RETURN f.id AS claim, p.id AS passage, r.how AS how
