// The day of the newest dated file (what undated core and bank files are current as of).
MATCH (s:Source)
WHERE s.day IS NOT NULL
RETURN s.day AS day
ORDER BY s.day DESC
LIMIT 1
