"""`jobspec schema`: print the exported JSON Schemas (``jobspec_lsp.jobspec.schema_export``)."""

from __future__ import annotations

import argparse
import sys


def run(args: argparse.Namespace) -> int:
    from jobspec_lsp.jobspec.schema_export import (  # deferred: only for `jobspec schema`
        schema_text,  # deferred: only for `jobspec schema`
    )

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
    """Add the ``schema`` subcommand to the ``jobspec`` parser's subparsers."""
    p = subparsers.add_parser(
        "schema",
        help="print a corrected JSON Schema of jobspec for other tools",
        description="Print the JSON Schema of canonical (RFC 14, the default) or V1 (RFC 25) "
        "jobspec, for yaml-language-server, check-jsonschema and other JSON Schema "
        "tools. A schema checks structure only; `jobspec check` does the rest.",
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--canonical", action="store_true", help="RFC 14 canonical jobspec (default)"
    )
    which.add_argument("--v1", action="store_true", help="RFC 25 jobspec V1")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    p.set_defaults(func=run)
    return p
