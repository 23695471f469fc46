// Every Entity node with all its columns, for export.
MATCH (n:Entity)
RETURN n.slug AS slug,
       n.name AS name,
       n.kind AS kind,
       n.aliases AS aliases,
       n.declared AS declared,
       n.page AS page,
       n.mentions AS mentions,
       n.first_seen AS first_seen,
       n.last_seen AS last_seen
ORDER BY n.slug
