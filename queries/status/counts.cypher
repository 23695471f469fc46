// Node counts per table.
MATCH (n)
RETURN label(n) AS label, count(n) AS nodes
ORDER BY label
