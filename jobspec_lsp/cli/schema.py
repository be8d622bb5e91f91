"""`jobspec schema`: print the exported JSON Schemas (``jobspec_lsp.jobspec.schema_export``)."""

from __future__ import annotations

import argparse
import sys

import jobspec_lsp.cli.arguments as arguments
from jobspec_lsp.jobspec.schema_export import schema_text


def run(args: argparse.Namespace) -> int:
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
