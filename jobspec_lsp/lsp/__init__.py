"""The language server: pygls handlers that adapt the pure core to LSP types
(``server``), the typed and validated settings (``settings``) and when documents
are analysed (``scheduling``).  Nothing here knows jobspec; see docs/architecture.md.

May import: text, diagnostics, fluxcli, site, jobspec, rules, settings, config, fmt, convert,
features, script, kinds.
"""
