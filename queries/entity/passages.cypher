// Log passages that mention an entity, newest first.
MATCH (p:Passage)-[m:MENTIONS]->(e:Entity {slug: $slug})
RETURN p.id AS id, p.text AS text, p.day AS day, m.how AS how, p.path AS path,
       p.line_start AS line_start, p.line_end AS line_end
ORDER BY p.day DESC, p.path, p.line_start
