// Supersession chains of an entity's facts: each older fact, the newer one that replaced it, when and on what cue.
MATCH (e:Entity {slug: $slug})<-[:MENTIONS]-(old:Fact)<-[s:SUPERSEDES]-(new:Fact:Passage)
RETURN old.id AS older, old.text AS older_text, old.valid_from AS valid_from,
       old.valid_to AS valid_to, new.id AS newer, new.text AS newer_text, s.day AS day,
       s.cue AS cue, new.path AS path, new.line_start AS line_start
ORDER BY day, older, newer
