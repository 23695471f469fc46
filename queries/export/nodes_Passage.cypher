// Every Passage node with all its columns, for export.
MATCH (n:Passage)
RETURN n.id AS id,
       n.text AS text,
       n.day AS day,
       n.valid_from AS valid_from,
       n.valid_to AS valid_to,
       n.path AS path,
       n.line_start AS line_start,
       n.line_end AS line_end,
       n.origin AS origin,
       n.heading AS heading,
       n.speaker AS speaker
ORDER BY n.id
