"""`jobspec schema`: print this project's JSON Schemas of jobspec for other tools.

The schemas ship inside the package (``jobspec_lsp/schemas/``). They are the
RFC 14 / RFC 25 reference schemas with their known faults corrected (see
docs/compatibility.md), written so that yaml-language-server and
check-jsonschema load them without extra options: draft-07, no external
``$ref``, patterns in the common subset of JavaScript and Python regexes.
"""

from __future__ import annotations

import argparse
import importlib.resources
import sys

SCHEMAS = {
    "canonical": "jobspec-canonical.schema.json",
    "v1": "jobspec-v1.schema.json",
}


def schema_text(kind: str = "canonical") -> str:
    """The JSON text of the packaged schema for ``canonical`` (RFC 14) or ``v1`` (RFC 25)."""
    return (importlib.resources.files("jobspec_lsp") / "schemas" / SCHEMAS[kind]).read_text(
        encoding="utf-8"
    )


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
