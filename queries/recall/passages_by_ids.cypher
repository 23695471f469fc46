// Full rows of the given passages.
MATCH (p:Passage)
WHERE p.id IN $ids
RETURN p.id AS id, p.text AS text, p.day AS day, p.valid_from AS valid_from, p.valid_to AS valid_to,
       p.path AS path, p.line_start AS line_start, p.line_end AS line_end, p.origin AS origin,
       p.speaker AS speaker
