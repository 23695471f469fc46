// Every indexed file with its role, day and content hash.
MATCH (s:Source)
RETURN s.path AS path, s.role AS role, s.day AS day, s.content_hash AS content_hash, s.size AS size,
       s.blocks AS blocks
ORDER BY s.path
