// Incremental index: an opinion's evolved confidence, after its evidence changed.
MATCH (o:Opinion {id: $id})
SET o.confidence = $confidence,
    o.superseded = $superseded,
    o.last_updated = $last_updated,
    o.history = $history
