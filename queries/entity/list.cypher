// Every entity with kind, aliases, mention count and first/last day seen.
MATCH (e:Entity)
RETURN e.slug AS slug, e.name AS name, e.kind AS kind, e.aliases AS aliases, e.declared AS declared,
       e.page AS page, e.mentions AS mentions, e.first_seen AS first_seen, e.last_seen AS last_seen
ORDER BY e.mentions DESC, e.slug
