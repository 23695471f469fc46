// FalkorDB: who mentions whom in the chat lines of every pushed workspace.
MATCH (s:Entity)<-[:MENTIONS {how: 'speaker'}]-(p:Passage)-[m:MENTIONS]->(o:Entity)
WHERE m.how <> 'speaker' AND p.workspace = s.workspace
RETURN p.workspace AS workspace, s.slug AS speaker, o.slug AS mentioned, count(*) AS times
ORDER BY workspace, times DESC, speaker, mentioned
