// Everything that mentions an entity between two days, by the day it starts (an open interval by its start), then its day and place.
MATCH (n:Fact:Opinion:Passage)-[:MENTIONS]->(e:Entity {slug: $slug})
WHERE n.day >= $since AND n.day <= $until
RETURN n.id AS id, label(n) AS label, n.day AS day, n.path AS path, n.line_start AS line_start,
       n.line_end AS line_end
ORDER BY coalesce(n.valid_from, n.day), n.day, n.path, n.line_start
LIMIT $limit
