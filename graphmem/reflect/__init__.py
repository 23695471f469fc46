"""Reflect: what the evidence of a window did to beliefs (a report over the compiled
opinions), and the bank pages regenerated from the graph."""
