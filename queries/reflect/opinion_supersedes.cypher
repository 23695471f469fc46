// Opinions replaced by a newer, contradicting opinion.
MATCH (newer:Opinion)-[s:SUPERSEDES]->(older:Opinion)
RETURN newer.id AS newer, older.id AS older, s.day AS day
