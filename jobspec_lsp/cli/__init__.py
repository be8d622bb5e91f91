"""The `jobspec` command: argument parsing, files, terminal output and exit codes
over the pure core (``main``: check, fmt, rules, shape, lsp; ``convert``: convert
and new; ``schema``: schema).  See docs/architecture.md."""

from jobspec_lsp.cli.main import lsp_main, main, run

__all__ = ["main", "lsp_main", "run"]
