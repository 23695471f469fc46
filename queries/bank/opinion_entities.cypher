// Which entities each opinion mentions, and how (explicit @mention, gazetteer, ner, speaker).
MATCH (o:Opinion)-[m:MENTIONS]->(e:Entity)
RETURN o.id AS id, e.slug AS slug, e.name AS name, m.how AS how
ORDER BY id, slug
