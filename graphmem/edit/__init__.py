"""Edits of the Markdown itself: retain (append a typed bullet), merge (record an alias)."""
