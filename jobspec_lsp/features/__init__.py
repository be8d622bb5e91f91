"""Editor features as pure functions of a document snapshot: completion, hover, fixes,
navigation (definitions, references, rename, symbols, folding, inlay hints).

May import: text, diagnostics, notations, site, job, jobspec, rules.
"""
