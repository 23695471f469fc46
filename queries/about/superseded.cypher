// Facts about an entity that a newer fact replaced, with what replaced them and when.
MATCH (e:Entity {slug: $slug})<-[:MENTIONS]-(old:Fact)<-[s:SUPERSEDES]-(new:Fact:Passage)
RETURN old.id AS id, old.text AS text, old.valid_from AS valid_from, old.valid_to AS valid_to,
       old.path AS path, old.line_start AS line_start, old.line_end AS line_end,
       new.id AS newer_id, new.text AS newer_text, s.day AS day, s.cue AS cue
ORDER BY s.day DESC
