"""`jobspec schema`: print the exported JSON Schemas of jobspec
(``jobspec_lsp.jobspec.schema_export``), or with ``findings`` the schema of the verdict
`check --format json` and the MCP tools share (``jobspec_lsp.mcp.verdict``, loaded only
then)."""

from __future__ import annotations

import argparse
import sys

import jobspec_lsp.cli.arguments as arguments
from jobspec_lsp.boundary import load
from jobspec_lsp.jobspec.schema_export import schema_text

FINDINGS = "jobspec_lsp.mcp.verdict:schema_text"


def run(args: argparse.Namespace) -> int:
    if args.what == "findings":
        if args.v1 or args.canonical:
            print("jobspec schema: error: --v1 and --canonical are jobspec's", file=sys.stderr)
            return 2
        text = load(FINDINGS)()
    else:
        text = schema_text("v1" if args.v1 else "canonical")
    if args.output and args.output != "-":
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            print(
                f"jobspec schema: error: cannot write {args.output}: {exc.strerror}",
                file=sys.stderr,
            )
            return 2
    else:
        sys.stdout.write(text)
    return 0


def register(subparsers) -> argparse.ArgumentParser:
    """Add the ``schema`` subcommand to a parser's subparsers, run by :func:`run` (the
    `jobspec` parser declares it through its command table, cli/commands.py)."""
    p = arguments.schema(subparsers)
    p.set_defaults(func=run)
    return p
