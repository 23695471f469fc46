// FalkorDB: opinions about an entity with their evidence, in every pushed workspace (type(r) for Kùzu's label(r)).
MATCH (o:Opinion)-[:ABOUT]->(e:Entity {slug: $slug})
WHERE o.workspace = e.workspace
OPTIONAL MATCH (x)-[r:SUPPORTS|CONTRADICTS]->(o)
RETURN o.workspace AS workspace, o.id AS id, o.statement AS statement,
       o.confidence AS confidence, o.last_updated AS last_updated, type(r) AS relation,
       x.id AS evidence, r.weight AS weight, r.day AS day, x.path AS evidence_path,
       x.line_start AS evidence_line
ORDER BY workspace, confidence DESC, id, day, evidence, relation
