// Full rows of the given passages (UNWIND + key match: Kùzu 0.11.3 scans the table for IN $ids).
UNWIND $ids AS i
MATCH (p:Passage {id: i})
RETURN p.id AS id, p.text AS text, p.day AS day, p.valid_from AS valid_from, p.valid_to AS valid_to,
       p.path AS path, p.line_start AS line_start, p.line_end AS line_end, p.origin AS origin,
       p.speaker AS speaker
