// Every Source node with all its columns, for export.
MATCH (n:Source)
RETURN n.path AS path,
       n.role AS role,
       n.day AS day,
       n.content_hash AS content_hash,
       n.size AS size,
       n.blocks AS blocks
ORDER BY n.path
