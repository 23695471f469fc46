// Which entities each fact mentions, and how (explicit @mention, gazetteer, ner, speaker).
MATCH (f:Fact)-[m:MENTIONS]->(e:Entity)
RETURN f.id AS id, e.slug AS slug, e.name AS name, m.how AS how
ORDER BY id, slug
