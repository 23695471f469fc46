// Support and contradiction recorded for the given opinions.
MATCH (x:Fact:Opinion)-[r:SUPPORTS|CONTRADICTS]->(o:Opinion)
WHERE o.id IN $ids
RETURN o.id AS opinion, x.id AS evidence, label(r) AS relation, r.weight AS weight, r.day AS day
