"""Parse: the workspace's Markdown files, read safely and kept byte-exact, into blocks and
line-exact sentences (plain data; no database)."""
