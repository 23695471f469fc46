// Support and contradiction recorded for the given opinions.
UNWIND $ids AS i
MATCH (x:Fact:Opinion)-[r:SUPPORTS|CONTRADICTS]->(o:Opinion {id: i})
RETURN o.id AS opinion, x.id AS evidence, label(r) AS relation, r.weight AS weight, r.day AS day
