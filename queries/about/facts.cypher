// Facts that mention an entity, with every entity each mentions and how (subject, page,
// explicit, gazetteer, ner): a card lists only the facts about the entity itself.
MATCH (f:Fact)-[:MENTIONS]->(e:Entity {slug: $slug})
MATCH (f)-[m:MENTIONS]->(o:Entity)
RETURN f.id AS id, f.kind AS kind, f.text AS text, f.day AS day,
       collect(o.slug) AS slugs, collect(m.how) AS hows
ORDER BY day DESC, id
