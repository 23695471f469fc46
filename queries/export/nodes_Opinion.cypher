// Every Opinion node with all its columns, for export.
MATCH (n:Opinion)
RETURN n.id AS id,
       n.statement AS statement,
       n.confidence AS confidence,
       n.stated_confidence AS stated_confidence,
       n.last_updated AS last_updated,
       n.day AS day,
       n.superseded AS superseded,
       n.history AS history,
       n.path AS path,
       n.line_start AS line_start,
       n.line_end AS line_end,
       n.origin AS origin,
       n.heading AS heading
ORDER BY n.id
