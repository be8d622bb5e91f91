"""`jobspec shape`: an RFC 46 shape expanded to the resources it stands for (YAML or
JSON), or with --from the shortest shape of a jobspec's resources."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from jobspec_lsp.cli.output import UsageError
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import to_python
from jobspec_lsp.notations import shape as shapes
from jobspec_lsp.text.sources import CannotRead, language_of, read_text


def run(args) -> int:
    if args.from_file is not None:
        if args.shape is not None:
            raise UsageError("give a SHAPE or --from FILE, not both")
        return _collapse(args.from_file, args.label)
    if args.shape is None:
        raise UsageError("give a SHAPE (e.g. slot=4/node/core=2) or --from FILE")
    return _expand(args.shape, args.label, args.format)


def _collapse(path: str, label: str) -> int:
    """The shape of the resources of the jobspec in ``path`` ('-': standard input)."""
    try:
        data, text = read_text(None if path == "-" else Path(path))
    except CannotRead as exc:
        print(f"jobspec: error: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    doc = parse(text, language_of(path if path != "-" else None, data))
    if doc.root is None:
        first = doc.problems[0]
        pos = doc.lines.position(first.start)
        print(
            f"jobspec: error: {path}:{pos.line + 1}:{pos.character + 1}: {first.message}",
            file=sys.stderr,
        )
        return 2
    value = to_python(doc.root)
    resources = value.get("resources") if isinstance(value, dict) else None
    try:
        print(shapes.collapse(resources, label=label))
    except shapes.ShapeError as err:
        print(f"jobspec: error: {path}: {err.message}", file=sys.stderr)
        return 1
    return 0


def _expand(shape: str, label: str, fmt: str) -> int:
    """The resources ``shape`` stands for, as YAML or JSON; 1 for a shape it refuses (as
    check's exit 1: 2 is for usage errors), the place shown with carets."""
    try:
        resources = shapes.expand(shape, label=label)
    except shapes.ShapeError as err:
        caret = " " * err.start + "^" * max(1, err.end - err.start)
        shown = shape
        if len(shown) > 200:  # the part around the error, not a kilobyte of shape
            lo = max(0, err.start - 60)
            shown, caret = shown[lo : err.start + 80], caret[lo:]
        print(f"jobspec: error: {err.message}\n  {shown}\n  {caret}", file=sys.stderr)
        return 1
    if fmt == "json":
        print(json.dumps(resources, indent=2))
    else:
        sys.stdout.write(yaml.safe_dump(resources, sort_keys=False, default_flow_style=False))
    return 0
