// Opinions about an entity with each fact or opinion that supports or contradicts them (none: one row with nulls).
MATCH (o:Opinion)-[:ABOUT]->(e:Entity {slug: $slug})
OPTIONAL MATCH (x)-[r:SUPPORTS|CONTRADICTS]->(o)
RETURN o.id AS id, o.statement AS statement, o.confidence AS confidence,
       o.last_updated AS last_updated, label(r) AS relation, x.id AS evidence,
       r.weight AS weight, r.day AS day, x.path AS evidence_path,
       x.line_start AS evidence_line
ORDER BY confidence DESC, id, day, evidence, relation
