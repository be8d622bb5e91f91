"""jobspec-lsp: language server, linter and formatter for Flux jobspec."""

__version__ = "0.1.0"
