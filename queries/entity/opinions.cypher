// Opinions about an entity with their confidence, most confident first.
MATCH (o:Opinion)-[:ABOUT]->(e:Entity {slug: $slug})
RETURN o.id AS id, o.statement AS statement, o.confidence AS confidence, o.last_updated AS last_updated,
       o.superseded AS superseded, o.path AS path, o.line_start AS line_start, o.line_end AS line_end
ORDER BY o.confidence DESC, o.day DESC
