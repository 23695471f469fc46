// Full rows of the given opinions (UNWIND + key match: Kùzu 0.11.3 scans the table for IN $ids).
UNWIND $ids AS i
MATCH (o:Opinion {id: i})
RETURN o.id AS id, o.statement AS text, o.confidence AS confidence, o.last_updated AS last_updated,
       o.superseded AS superseded, o.day AS day, o.path AS path, o.line_start AS line_start,
       o.line_end AS line_end, o.origin AS origin
