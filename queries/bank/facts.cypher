// Every fact with its validity and source lines, in source order (for the bank pages).
MATCH (f:Fact)
RETURN f.id AS id, f.kind AS kind, f.text AS text, f.day AS day, f.valid_from AS valid_from,
       f.valid_to AS valid_to, f.path AS path, f.line_start AS line_start, f.line_end AS line_end,
       f.origin AS origin
ORDER BY f.path, f.line_start, f.id
