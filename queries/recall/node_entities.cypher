// The entities each of the given facts, opinions and passages mentions, and how.
MATCH (n:Fact:Opinion:Passage)-[m:MENTIONS]->(e:Entity)
WHERE n.id IN $ids
RETURN n.id AS id, e.slug AS slug, e.name AS name, m.how AS how
