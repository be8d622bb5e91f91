"""Diagnostics and the rule registry.

A rule is metadata (code, name, default severity, documentation) plus the
check code that reports it, which lives in one of the ``rules`` family
modules.  A diagnostic is plain data: code, severity, message, the
code-point offsets of the offending token, and optional ``data`` a quick-fix
can use.  How it is shown (terminal, JSON, LSP) is the edges' business.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Severity(enum.IntEnum):
    # Values match LSP's DiagnosticSeverity so the server can pass them through.
    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str
    why: str
    bad: str
    good: str
    # Which version rules apply: "all", "v1" (only with V1 rules), "canonical".
    applies: str = "all"
    # Extra arguments for checking the examples (e.g. {"language": "json"}).
    example_options: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    start: int
    end: int
    data: dict[str, Any] | None = None

    def sort_key(self):
        return (self.start, self.end, self.code)


RULES: dict[str, Rule] = {}

# LSP diagnostic tags a rule's findings carry: "deprecated" (struck through) or
# "unnecessary" (faded) -- the `after` dependency scheme, an unused suppression.
TAGS: dict[str, tuple[str, ...]] = {"JS515": ("deprecated",), "JS913": ("unnecessary",)}


def define(
    code: str,
    name: str,
    severity: Severity,
    summary: str,
    *,
    why: str,
    bad: str,
    good: str,
    applies: str = "all",
    **example_options,
) -> str:
    """Register a rule.  Codes are forever: never renumber or reuse one."""
    if code in RULES:
        raise ValueError(f"rule code {code} defined twice")
    RULES[code] = Rule(
        code, name, severity, summary, why.strip(), bad, good, applies, example_options
    )
    return code


def matches(code: str, patterns) -> bool:
    """True when ``code`` starts with one of ``patterns`` (ruff-style prefixes: JS, JS2, JS201)."""
    return any(code.startswith(p) for p in patterns)
