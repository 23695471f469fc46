// Incremental index: a fact's end of validity, after supersession changed.
MATCH (f:Fact {id: $id})
SET f.valid_to = $valid_to
