// FalkorDB: entity facts of every pushed workspace, each row naming its workspace.
MATCH (f:Fact)-[:MENTIONS]->(e:Entity {slug: $slug})
WHERE f.workspace = e.workspace
RETURN f.workspace AS workspace, f.id AS id, f.kind AS kind, f.text AS text, f.day AS day,
       f.valid_from AS valid_from, f.valid_to AS valid_to, f.path AS path,
       f.line_start AS line_start, f.line_end AS line_end
ORDER BY workspace, day DESC, path, line_start, id
