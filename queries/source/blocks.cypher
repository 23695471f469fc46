// Everything one Markdown file contributed, in line order.
MATCH (n)-[:`IN`]->(s:Source {path: $path})
RETURN label(n) AS label, n.id AS id, n.line_start AS line_start, n.line_end AS line_end
ORDER BY line_start
