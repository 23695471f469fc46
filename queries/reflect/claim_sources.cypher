// Where every fact and opinion is written (to cite evidence).
MATCH (n:Fact:Opinion)
RETURN n.id AS id, n.path AS path, n.line_start AS line_start, n.line_end AS line_end
