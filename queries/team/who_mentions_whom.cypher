// Who mentions whom: for each chat speaker, the entities their lines mention and how often.
MATCH (s:Entity)<-[:MENTIONS {how: 'speaker'}]-(p:Passage)-[m:MENTIONS]->(o:Entity)
WHERE m.how <> 'speaker'
RETURN s.slug AS speaker, o.slug AS mentioned, count(*) AS times
ORDER BY times DESC, speaker, mentioned
