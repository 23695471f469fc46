"""Language knowledge every layer reads, and nothing else: folding (case and accents), the
light stemmers, and the stop-word lists. The ground floor: it imports no other layer."""
