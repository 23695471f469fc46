// Recent experiences and log passages that mention an entity, newest first.
MATCH (n:Fact:Passage)-[:MENTIONS]->(e:Entity {slug: $slug})
WHERE n.day IS NOT NULL AND (label(n) = 'Passage' OR n.kind = 'experience')
RETURN n.id AS id, label(n) AS label, n.day AS day, n.path AS path, n.line_start AS line_start,
       n.line_end AS line_end
ORDER BY n.day DESC, n.path, n.line_start DESC
LIMIT $limit
