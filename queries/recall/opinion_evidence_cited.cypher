// Support and contradiction recorded for the given opinions, cited by where the evidence is written.
UNWIND $ids AS i
MATCH (x:Fact:Opinion)-[r:SUPPORTS|CONTRADICTS]->(o:Opinion {id: i})
RETURN o.id AS opinion, x.path AS path, x.line_start AS line_start, x.line_end AS line_end, label(r) AS relation, r.weight AS weight, r.day AS day
