// Entities mentioned together with an entity, most often first.
MATCH (e:Entity {slug: $slug})<-[:MENTIONS]-(n)-[:MENTIONS]->(o:Entity)
WHERE o.slug <> $slug
RETURN o.slug AS slug, o.name AS name, o.kind AS kind, count(*) AS together
ORDER BY together DESC, slug
LIMIT $limit
