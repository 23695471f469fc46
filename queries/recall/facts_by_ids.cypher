// Full rows of the given facts (UNWIND + key match: Kùzu 0.11.3 scans the table for IN $ids).
UNWIND $ids AS i
MATCH (f:Fact {id: i})
RETURN f.id AS id, f.kind AS kind, f.text AS text, f.day AS day, f.valid_from AS valid_from,
       f.valid_to AS valid_to, f.path AS path, f.line_start AS line_start, f.line_end AS line_end,
       f.origin AS origin
