"""The `jobspec` command: argument parsing, files, terminal output and exit codes over
the pure core. ``main`` runs the command the command line names, through the declared
table of commands (``commands``: each one's module, loaded only when it runs, and the
function declaring its arguments, in ``arguments``); each command has its module (check,
fmt, convert, new, schema, rules, shape, site, lsp, mcp). See docs/architecture.md.

May import: record, boundary, text, diagnostics, notations, fluxcli,
site, jobspec, rules, settings, config, fmt, convert, migrate, script, kinds, lsp, mcp."""

from jobspec_lsp.cli.main import lsp_main, main, run

__all__ = ["main", "lsp_main", "run"]
