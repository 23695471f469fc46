// Every opinion with its current and stated confidence, history of moves and source lines.
MATCH (o:Opinion)
RETURN o.id AS id, o.statement AS text, o.confidence AS confidence,
       o.stated_confidence AS stated_confidence, o.last_updated AS last_updated,
       o.superseded AS superseded, o.history AS history, o.day AS day, o.path AS path, o.line_start AS line_start,
       o.line_end AS line_end
ORDER BY o.path, o.line_start, o.id
