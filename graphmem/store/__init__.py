"""Store: what every stage stands on: the database layer (the only importer of ``kuzu``),
the schema and named queries, the per-file cache, the ``.memory/`` layout and the published
generation readers open."""
