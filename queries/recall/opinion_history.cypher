// The evidence history of the given opinions (JSON, see Opinion.history): recall ranks
// what moved a top opinion right after it.
MATCH (o:Opinion)
WHERE o.id IN $ids
RETURN o.id AS id, o.history AS history
