"""Extract: what each block says (entities, times and their mood, aspect, typed slots,
the cross-lingual words), cached per file."""
