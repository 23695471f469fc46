// The entities each of the given facts, opinions and passages mentions, and how.
UNWIND $ids AS i
MATCH (n:Passage {id: i})-[m:MENTIONS]->(e:Entity)
RETURN n.id AS id, e.slug AS slug, e.name AS name, m.how AS how
UNION ALL
UNWIND $ids AS i
MATCH (n:Fact {id: i})-[m:MENTIONS]->(e:Entity)
RETURN n.id AS id, e.slug AS slug, e.name AS name, m.how AS how
UNION ALL
UNWIND $ids AS i
MATCH (n:Opinion {id: i})-[m:MENTIONS]->(e:Entity)
RETURN n.id AS id, e.slug AS slug, e.name AS name, m.how AS how
