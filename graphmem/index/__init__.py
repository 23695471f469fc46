"""Index: the build that runs parse, extract and compile, bulk-loads the rows into Kùzu,
full or incremental, publishes a generation and fills in its vectors."""
