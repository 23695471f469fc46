// graphmem ontology. The code loads this file statement by statement; nothing else defines
// tables. Any change here changes the schema hash, and the next `index` rebuilds from Markdown.

// A Markdown file of the workspace.
CREATE NODE TABLE Source(
  path STRING PRIMARY KEY,
  role STRING,            // daily | core | soul | entity | bank | note
  day DATE,
  content_hash STRING,
  size INT64,
  blocks INT64
);

// A person, place, project, org, tool or thing.
CREATE NODE TABLE Entity(
  slug STRING PRIMARY KEY,
  name STRING,
  kind STRING,            // person | place | project | org | tool | thing (NULL: unknown)
  aliases STRING[],
  declared BOOLEAN,       // has a bank page or an explicit @mention
  page STRING,            // bank/entities/<Name>.md when it has one
  mentions INT64,
  first_seen DATE,
  last_seen DATE
);

// A typed statement: W world, B experience, S observation.
CREATE NODE TABLE Fact(
  id STRING PRIMARY KEY,
  kind STRING,            // world | experience | observation
  text STRING,
  day DATE,
  valid_from DATE,
  valid_to DATE,
  path STRING,
  line_start INT64,
  line_end INT64,
  origin STRING,          // retain | log | bank | core
  heading STRING
);

// A belief with a confidence in [0, 1].
CREATE NODE TABLE Opinion(
  id STRING PRIMARY KEY,
  statement STRING,
  confidence DOUBLE,
  stated_confidence DOUBLE,
  last_updated DATE,
  day DATE,
  superseded BOOLEAN,
  history STRING,         // JSON: [{day, old, new, evidence, relation, reason}, ...]
  path STRING,
  line_start INT64,
  line_end INT64,
  origin STRING,
  heading STRING
);

// Free text: a paragraph, a list item or a code block, with its exact lines.
CREATE NODE TABLE Passage(
  id STRING PRIMARY KEY,
  text STRING,
  day DATE,
  valid_from DATE,
  valid_to DATE,
  path STRING,
  line_start INT64,
  line_end INT64,
  origin STRING,
  heading STRING,
  speaker STRING
);

CREATE REL TABLE MENTIONS(FROM Fact TO Entity, FROM Opinion TO Entity, FROM Passage TO Entity, how STRING);
CREATE REL TABLE ABOUT(FROM Opinion TO Entity);
CREATE REL TABLE SUPPORTS(FROM Fact TO Opinion, FROM Opinion TO Opinion, weight DOUBLE, day DATE, reason STRING);
CREATE REL TABLE CONTRADICTS(FROM Fact TO Opinion, FROM Opinion TO Opinion, weight DOUBLE, day DATE, reason STRING);
CREATE REL TABLE EVIDENCE(FROM Fact TO Passage, FROM Opinion TO Passage, how STRING);
CREATE REL TABLE SUPERSEDES(FROM Fact TO Fact, FROM Opinion TO Opinion, FROM Passage TO Fact, day DATE, cue STRING);
// Reading order: a passage -> the next passage of the same file.
CREATE REL TABLE NEXT(FROM Passage TO Passage);
CREATE REL TABLE `IN`(FROM Fact TO Source, FROM Opinion TO Source, FROM Passage TO Source, FROM Entity TO Source);
