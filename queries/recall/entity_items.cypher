// Facts and opinions that mention any of the given entities, newest first (the entity channel).
MATCH (n:Fact:Opinion)-[:MENTIONS]->(e:Entity)
WHERE e.slug IN $slugs
RETURN n.id AS id, e.slug AS slug, n.day AS day
ORDER BY n.day DESC, n.id
LIMIT $limit
