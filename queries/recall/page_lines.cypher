// The lines of every entity's own bank page, in page order: recall reads each page's
// first line of prose as the entity's definition.
MATCH (p:Passage)-[m:MENTIONS]->(e:Entity)
WHERE m.how = 'page'
RETURN e.slug AS slug, p.id AS id, p.line_start AS line_start, p.text AS text
ORDER BY e.slug, p.line_start
