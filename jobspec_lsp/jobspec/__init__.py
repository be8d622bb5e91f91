"""Jobspec documents: the positioned model (parse), the vocabulary of keys, the context of a position, examples and key documentation, the JSON errors, the exported schemas.

May import: record, text, diagnostics, notations.
"""
