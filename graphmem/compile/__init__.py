"""Compile: parsed files and extraction results into the rows of the graph: which facts
supersede which, and which evidence supports or contradicts which opinion (pure; no
database)."""
