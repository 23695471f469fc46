// SUPERSEDES links touching the given facts or opinions: newer replaces older.
MATCH (newer:Fact:Opinion:Passage)-[s:SUPERSEDES]->(older:Fact:Opinion)
WHERE newer.id IN $ids OR older.id IN $ids
RETURN newer.id AS newer, older.id AS older, s.day AS day, s.cue AS cue
