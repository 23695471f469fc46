// Distinct days on which anything mentions each entity (for deciding which get a bank page).
MATCH (n:Fact:Opinion:Passage)-[:MENTIONS]->(e:Entity)
WHERE n.day IS NOT NULL
RETURN e.slug AS slug, count(DISTINCT n.day) AS days
ORDER BY slug
