// Facts that mention an entity, across workspaces on a server: newest first, with validity and source lines.
MATCH (f:Fact)-[:MENTIONS]->(e:Entity {slug: $slug})
RETURN f.id AS id, f.kind AS kind, f.text AS text, f.day AS day, f.valid_from AS valid_from,
       f.valid_to AS valid_to, f.path AS path, f.line_start AS line_start, f.line_end AS line_end
ORDER BY day DESC, path, line_start, id
