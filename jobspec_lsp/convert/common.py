"""What every conversion shares: a :class:`Conversion` and its changes, the checks a result must pass, writing a jobspec."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

import yaml

from jobspec_lsp.diagnostics import Diagnostic, Severity
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import Mapping, Node, Scalar, Sequence
from jobspec_lsp.rules import analysis
from jobspec_lsp.rules import convert as codes
from jobspec_lsp.rules import v1 as v1_rules
from jobspec_lsp.rules.base import head

CANONICAL_VERSION = 999
PSIJ_DEFAULT_DURATION = 600  # PSI/J's JobAttributes default: 10 minutes
V1_TYPES = v1_rules.V1_TYPES


@dataclass
class Change:
    """One change a conversion made; ``start``/``end`` are code-point offsets of
    the input it concerns (0, 0 when there is no input text)."""

    message: str
    start: int
    end: int


@dataclass
class Conversion:
    text: str | None
    changes: list[Change] = field(default_factory=list)
    blockers: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.text is not None


class UsageError(ValueError):
    """Options that cannot be turned into a jobspec (``jobspec new`` exits 2)."""


# --------------------------------------------------------------------------- helpers
def _span(where) -> tuple[int, int]:
    if isinstance(where, tuple):
        return where
    return head(where)


def _diag(code: str, where, message: str, severity: Severity = Severity.ERROR) -> Diagnostic:
    start, end = _span(where)
    return Diagnostic(code, severity, message, start, end)


def _errors(source, language: str, rules: str, target: str = "rfc") -> list[Diagnostic]:
    return [
        d
        for d in analysis.check(source, language=language, version_rules=rules, target=target)
        if d.severity == Severity.ERROR
    ]


def _refuse(errors) -> Conversion:
    return Conversion(
        None,
        blockers=[
            Diagnostic(
                codes.NOT_VALID,
                Severity.ERROR,
                f"fix this first: {e.message} ({e.code})",
                e.start,
                e.end,
            )
            for e in errors
        ],
    )


def _same(a, b) -> bool:
    """Equal data with equal types (1, 1.0 and true differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def _plain(data):
    """A deep copy with no shared objects (aliases become independent copies)."""
    return json.loads(json.dumps(data, default=str))


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _line_end(text: str, offset: int) -> int:
    """Offset just after the newline ending the line of ``offset`` (or the end)."""
    nl = text.find("\n", offset)
    return len(text) if nl < 0 else nl + 1


def _column(text: str, offset: int) -> int:
    return offset - _line_start(text, offset)


def _content_end(node: Node) -> int:
    """Where a node's own text ends (a block collection's end mark lies further on,
    at the next line's indentation)."""
    while True:
        if isinstance(node, Mapping) and not node.flow and node.pairs:
            node = node.pairs[-1][1]
        elif isinstance(node, Sequence) and not node.flow and node.items:
            node = node.items[-1]
        else:
            return node.end


_PLAIN_WORD = re.compile(r"[A-Za-z_/][A-Za-z0-9_./+@-]*\Z")


def _yaml_str(s: str) -> str:
    """A string as a YAML scalar safe in block and flow context."""
    if _PLAIN_WORD.match(s):
        doc = parse(f"x: {s}\n")
        root = doc.root
        x = root.get("x") if isinstance(root, Mapping) else None
        if not doc.problems and isinstance(x, Scalar) and x.value == s:
            return s
    return json.dumps(s, ensure_ascii=False)


def _scalar(value, language: str) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False) if language == "json" else _yaml_str(value)
    return json.dumps(value)


def _key(name: str, language: str) -> str:
    return json.dumps(name) if language == "json" else name


def _yaml_dump(js) -> str:
    """PyYAML's safe dump, with a text of several lines (a script in `files`) as a
    literal block, which PyYAML keeps only where it reads back the same."""

    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper, value: str):
        style = "|" if "\n" in value.rstrip("\n") else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, text)
    return yaml.dump(
        js,
        Dumper=Dumper,
        sort_keys=False,
        default_flow_style=None,
        allow_unicode=True,
        width=1 << 16,
    )


def dump(js: dict, fmt: str = "yaml") -> str:
    """A jobspec (plain data) as YAML or JSON text in the formatter's style;
    :class:`UsageError` for one nested too deeply to write (a --setattr value of
    hundreds of levels: the writers recurse)."""
    from jobspec_lsp.fmt.format import (  # deferred: the formatter, only when a document is written
        FormatError,
        format_text,
    )

    try:
        if fmt == "json":
            text = json.dumps(js, indent=2, ensure_ascii=False) + "\n"
        else:
            text = _yaml_dump(js)
    except RecursionError:
        raise UsageError("the jobspec nests too deeply to be written") from None
    try:
        return format_text(text, fmt)
    except FormatError:  # a document beyond the formatter's own limits: as written
        return text


def _verified(
    text: str, language: str, rules: str, changes, warnings=(), where=(0, 0), target: str = "rfc"
) -> Conversion:
    """``text`` when it checks clean under ``rules`` (and ``target``); otherwise
    blockers (a conversion never returns a jobspec `jobspec check` would reject)."""
    left = _errors(text, language, rules, target)
    if left:
        lines = parse(text, language).lines
        return Conversion(
            None,
            list(changes),
            [
                _diag(
                    codes.NOT_VALID,
                    where,
                    f"the result would have {e.code} at line "
                    f"{lines.position(e.start).line + 1}: {e.message}",
                )
                for e in left
            ],
            list(warnings),
        )
    return Conversion(text, list(changes), [], list(warnings))
