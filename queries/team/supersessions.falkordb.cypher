// FalkorDB: supersession chains of an entity's facts in every pushed workspace (the newer a Fact or a chat Passage, as Kùzu's new:Fact:Passage reads).
MATCH (e:Entity {slug: $slug})<-[:MENTIONS]-(old:Fact)<-[s:SUPERSEDES]-(new)
WHERE old.workspace = e.workspace AND (new:Fact OR new:Passage)
RETURN old.workspace AS workspace, old.id AS older, old.text AS older_text,
       old.valid_from AS valid_from, old.valid_to AS valid_to, new.id AS newer,
       new.text AS newer_text, s.day AS day, s.cue AS cue, new.path AS path,
       new.line_start AS line_start
ORDER BY workspace, day, older, newer
