"""Export targets: files (GraphML, JSON, CSV) and a FalkorDB server (``falkordb/``)."""
