// The entities each opinion is about.
MATCH (o:Opinion)-[:ABOUT]->(e:Entity)
RETURN o.id AS id, e.slug AS slug, e.name AS name
ORDER BY o.id, e.slug
