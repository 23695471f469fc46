// Incremental index: an entity's mention count and first and last day seen.
MATCH (e:Entity {slug: $slug})
SET e.mentions = $mentions,
    e.first_seen = $first_seen,
    e.last_seen = $last_seen
