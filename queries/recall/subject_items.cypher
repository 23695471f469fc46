// Items about the given entities (a bullet whose subject they are, a line of their own bank page), newest first (the subject channel).
MATCH (n:Fact:Opinion:Passage)-[m:MENTIONS]->(e:Entity)
WHERE e.slug IN $slugs AND m.how IN ['subject', 'page']
RETURN n.id AS id, e.slug AS slug, n.day AS day
ORDER BY n.day DESC, n.id
LIMIT $limit
