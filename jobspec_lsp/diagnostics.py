"""Diagnostics and the rule registry.

A rule is metadata (code, name, default severity, documentation) plus the
check code that reports it, which lives in one of the ``rules`` family
modules.  A diagnostic is plain data: code, severity, message, the
code-point offsets of the offending token, and optional ``data`` a quick-fix
can use.  How it is shown (terminal, JSON, LSP) is the edges' business.
"""

from __future__ import annotations

import enum
import importlib
import re
from collections.abc import Iterator, Mapping

from jobspec_lsp.record import Frozen
from jobspec_lsp.text import suggest

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
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


# Which rules a jobspec is held to: V1 rules when it says `version: 1` ("auto"), or
# always the canonical ones, or always V1's.
VERSION_RULES = ("auto", "canonical", "v1")

# The kinds of document a rule can apply to (see :mod:`.kinds`).
JOBSPEC_KINDS = ("jobspec-yaml", "jobspec-json")
SCRIPT_KINDS = ("flux-script",)
SLURM_KINDS = ("slurm-script",)
ALL_KINDS = JOBSPEC_KINDS + SCRIPT_KINDS + SLURM_KINDS
# How safe a rule's fix is (docs/configuration.md, "Fixes"): a "repair" fixes an error
# Flux would refuse or misread by changing the one value it is about (safe on an
# error only); a "cosmetic" fix changes how the document is written, never what Flux
# reads; an "unsafe" one (a did-you-mean, a rewrite) is applied only when asked.
SAFETIES = ("repair", "cosmetic", "unsafe")
TAG_NAMES = ("deprecated", "unnecessary")  # LSP diagnostic tags: struck through, faded


# The documentation site, declared once: mkdocs.yml's site_url (docs/hooks.py reads it
# here), the link of every diagnostic's code (LSP codeDescription, SARIF helpUri, `jobspec
# rules CODE`) and the README. A rule's page is rule_url(code); the docs-url setting
# (jobspec_lsp.settings) replaces this base for a site that hosts its own copy.
DOCS_URL = "https://flux-framework.github.io/jobspec-lsp/"


def rule_url(code: str, base: str | None = None) -> str:
    """The address of a rule's page on the documentation site: ``<base>/rules/js202/``
    (``base``: the docs-url setting, else :data:`DOCS_URL`)."""
    return f"{(base or DOCS_URL).rstrip('/')}/rules/{code.lower()}/"


class Rule(Frozen):
    """One rule, declared once next to its check: everything the CLI, the server, the
    configuration, suppression comments, the docs and the schemas know of it."""

    __slots__ = (
        "code", "name", "severity", "summary", "why", "bad", "good",
        # which version rules apply: "all", "v1" (only with V1 rules), "canonical"
        "applies",
        # extra arguments for checking the examples (e.g. {"language": "json"})
        "example_options",
        # the fix: the name of its strategy in :mod:`.fixes` (None: no fix), and its safety
        "fix", "safety",
        "tags", "kinds",
        # the RFC whose text the rule enforces: named when a --target accepts what it
        # forbids ("RFC 25 requires this; flux-core accepts it"); None for rules of no RFC
        "rfc",
    )  # fmt: skip
    code: str
    name: str
    severity: Severity
    summary: str
    why: str
    bad: str
    good: str
    applies: str
    example_options: dict
    fix: str | None
    safety: str
    tags: tuple[str, ...]
    kinds: tuple[str, ...]
    rfc: str | None

    def __init__(
        self,
        code: str,
        name: str,
        severity: Severity,
        summary: str,
        why: str,
        bad: str,
        good: str,
        applies: str = "all",
        example_options: dict | None = None,
        fix: str | None = None,
        safety: str = "unsafe",
        tags: tuple[str, ...] = (),
        kinds: tuple[str, ...] = JOBSPEC_KINDS,
        rfc: str | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "code", code)
        put(self, "name", name)
        put(self, "severity", severity)
        put(self, "summary", summary)
        put(self, "why", why)
        put(self, "bad", bad)
        put(self, "good", good)
        put(self, "applies", applies)
        put(self, "example_options", {} if example_options is None else example_options)
        put(self, "fix", fix)
        put(self, "safety", safety)
        put(self, "tags", tags)
        put(self, "kinds", kinds)
        put(self, "rfc", rfc)

    @property
    def for_scripts(self) -> bool:
        """The rule reads scripts only (its examples are scripts, not jobspec)."""
        return not any(k.startswith("jobspec") for k in self.kinds)

    @property
    def safe_fix(self) -> bool:
        return self.fix is not None and self.safety in ("repair", "cosmetic")


class Diagnostic(Frozen):
    __slots__ = ("code", "severity", "message", "start", "end", "data")
    code: str
    severity: Severity
    message: str
    start: int
    end: int
    data: dict[str, Any] | None

    def __init__(
        self,
        code: str,
        severity: Severity,
        message: str,
        start: int,
        end: int,
        data: dict[str, Any] | None = None,
    ) -> None:
        # A message quotes the user's text; a word of it may be kilobytes long (a
        # 40 KB directive word, a 4,400-digit number). Every message is held to a
        # readable size here, once, whatever rule wrote it.
        if len(message) > MESSAGE_LIMIT:
            message = brief_message(message)
        put = object.__setattr__
        put(self, "code", code)
        put(self, "severity", severity)
        put(self, "message", message)
        put(self, "start", start)
        put(self, "end", end)
        put(self, "data", data)

    def sort_key(self):
        return (self.start, self.end, self.code)


MESSAGE_LIMIT = 400
_LONG_WORD = re.compile(r"\S{81,}")


def brief_message(message: str) -> str:
    """``message`` with every word over 80 characters cut in its middle (its length
    said), and at most :data:`MESSAGE_LIMIT` characters in all."""

    def cut(m: re.Match) -> str:
        w = m.group(0)
        return f"{w[:40]}…{w[-20:]} ({len(w):,} characters)"

    out = _LONG_WORD.sub(cut, message)
    return out if len(out) <= MESSAGE_LIMIT else out[: MESSAGE_LIMIT - 1] + "…"


# Every module that defines rules. Rules register when their module is imported; the
# registry imports these on its first read, so whoever reads it sees every rule (a test
# walks the package for rule declarations and holds this list to them).
RULE_MODULES = (
    "jobspec.problems", "rules.structure", "rules.counts", "rules.tasks", "rules.attributes",
    "rules.constraints", "rules.dependencies", "rules.files", "rules.v1", "rules.convert",
    "rules.targets", "rules.suppress", "rules.site", "job.directives", "script.reading", "script.steps", "script.batch", "script.sbatch",
)  # fmt: skip


class Registry(Mapping[str, Rule]):
    """Code -> rule, complete before anyone reads it: the first read imports every
    module of ``RULE_MODULES`` (lazily, so that those modules can import this one)."""

    def __init__(self) -> None:
        self._rules: dict[str, Rule] = {}
        self._complete = False
        self._loading = False

    def _load(self) -> dict[str, Rule]:
        if not self._complete and not self._loading:
            self._loading = True  # a read while the modules are imported sees what is there
            try:
                for name in RULE_MODULES:
                    importlib.import_module(f".{name}", __package__)
                self._complete = True
            finally:
                self._loading = False
        return self._rules

    def add(self, rule: Rule) -> None:
        if rule.code in self._rules:
            raise ValueError(f"rule code {rule.code} defined twice")
        self._rules[rule.code] = rule

    def __getitem__(self, code: str) -> Rule:
        return self._load()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


RULES = Registry()


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
    fix: str | None = None,
    safety: str | None = None,
    tags: tuple[str, ...] = (),
    kinds: tuple[str, ...] = JOBSPEC_KINDS,
    rfc: str | None = None,
    **example_options,
) -> str:
    """Register a rule.  Codes are forever: never renumber or reuse one."""
    if safety is not None and (fix is None or safety not in SAFETIES):
        raise ValueError(f"{code}: safety {safety!r} needs a fix and one of {SAFETIES}")
    if any(t not in TAG_NAMES for t in tags):
        raise ValueError(f"{code}: tags are among {TAG_NAMES}, not {tags}")
    RULES.add(
        Rule(
            code,
            name,
            severity,
            summary,
            why.strip(),
            bad,
            good,
            applies,
            example_options,
            fix=fix,
            safety=safety or "unsafe",
            tags=tuple(tags),
            kinds=tuple(kinds),
            rfc=rfc,
        )  # fmt: skip
    )
    return code


_UNSET: Any = object()
_HEAD = re.compile(r"(JS\d{3}) ([a-z0-9]+(?:-[a-z0-9]+)*): (\S.*)")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")  # between paragraphs (indented or not)


def read_doc(doc: str) -> tuple[str, str, str, str]:
    """A rule's documentation as written in its declaration -> code, name, summary, why.

    The first paragraph is ``CODE name: summary``; the paragraphs after it are the
    explanation (lines of a paragraph joined, paragraphs kept apart)."""
    paragraphs = [" ".join(p.split()) for p in _BLANK_LINE.split(doc.strip())]
    m = _HEAD.fullmatch(paragraphs[0])
    if m is None or len(paragraphs) < 2:
        raise ValueError(f"a rule's text starts 'JSnnn name: summary' and explains it: {doc!r}")
    return m[1], m[2], m[3], "\n\n".join(p for p in paragraphs[1:] if p)


class Family(Frozen):
    """What the rules declared in one module share (the RFC they enforce, the document
    kinds and version rules they apply to, the fixed example most of them have), so that
    each declaration says only what is its own::

        family = Family(rfc="RFC 14", good=_js())
        TASK_MISSING = family.error(
            \"\"\"JS305 task-missing-key: A task lacks `command`, `slot` or `count`.

            RFC 14 requires all three: what to run, where, and how many copies.\"\"\",
            bad=_js(task="  - command: [app]\\n    slot: task\\n"),
        )

    The text is the rule's documentation (the CLI, hover and docs/rules.md show it);
    ``bad`` and ``good`` are its examples, which the tests check; a keyword given to a
    declaration overrides the family's."""

    __slots__ = ("rfc", "applies", "kinds", "good")
    rfc: str | None
    applies: str
    kinds: tuple[str, ...]
    good: str | None

    def __init__(
        self,
        rfc: str | None = None,
        applies: str = "all",
        kinds: tuple[str, ...] = JOBSPEC_KINDS,
        good: str | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "rfc", rfc)
        put(self, "applies", applies)
        put(self, "kinds", kinds)
        put(self, "good", good)

    def _declare(self, severity: Severity, doc: str, **kw: Any) -> str:
        code, name, summary, why = read_doc(doc)
        for key in ("rfc", "applies", "kinds", "good"):
            if kw.get(key, _UNSET) is _UNSET:
                kw[key] = getattr(self, key)
        if kw["good"] is None:
            raise ValueError(f"{code}: no fixed example (good=), and the family has none")
        return define(code, name, severity, summary, why=why, **kw)

    def error(self, doc: str, **kw: Any) -> str:
        return self._declare(Severity.ERROR, doc, **kw)

    def warning(self, doc: str, **kw: Any) -> str:
        return self._declare(Severity.WARNING, doc, **kw)

    def info(self, doc: str, **kw: Any) -> str:
        return self._declare(Severity.INFORMATION, doc, **kw)

    def hint(self, doc: str, **kw: Any) -> str:
        return self._declare(Severity.HINT, doc, **kw)


def matches(code: str, patterns) -> bool:
    """True when ``code`` starts with one of ``patterns`` (ruff-style prefixes: JS, JS2, JS201)."""
    return any(code.startswith(p) for p in patterns)


# ------------------------------------------------------------------- lists of codes
class CodeList(Frozen):
    """A list of rule codes or prefixes as a user wrote it, read (``read_codes``)."""

    __slots__ = ("codes", "unknown")
    codes: tuple[str, ...]  # the ones that name a rule or a family, upper case, in order
    unknown: tuple[str, ...]  # the ones that name no rule, as written (blanks stripped)

    def __init__(self, codes: tuple[str, ...], unknown: tuple[str, ...]) -> None:
        object.__setattr__(self, "codes", codes)
        object.__setattr__(self, "unknown", unknown)

    def problems(self) -> list[str]:
        return [unknown_code(u) for u in self.unknown]


def read_codes(value) -> CodeList:
    """The one reader of rule-code lists, for the command line, the project
    configuration and the editor's settings: a string of comma-separated codes, or a
    list of such strings; commas and blanks separate, case does not matter.
    A code or a prefix (``JS2``, ``JS20``, ``JS201``) is known when some rule's code
    starts with it. ``TypeError`` for a value that is neither a string nor a list of
    strings."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise TypeError("expected rule codes: a list of strings or one comma-separated string")
    codes: list[str] = []
    unknown: list[str] = []
    for item in value:
        for word in re.split(r"[,\s]+", item):
            if not word:
                continue
            code = word.upper()
            if not is_code_or_prefix(code):
                if word not in unknown:
                    unknown.append(word)
            elif code not in codes:
                codes.append(code)
    return CodeList(tuple(codes), tuple(unknown))


def is_code_or_prefix(code: str) -> bool:
    """Whether ``code`` (upper case) is a rule's code or the start of one's."""
    return code.startswith("JS") and any(c.startswith(code) for c in RULES)


def unknown_code(word: str) -> str:
    """What is wrong with a code that names no rule, with the nearest one if any."""
    code = word.strip().upper()
    family = code.rstrip("X")  # JS57x, JS5xx: a family written as in the docs
    if family != code and is_code_or_prefix(family):
        every = family + "x" * (len(code) - len(family))
        return f"unknown rule code or prefix {word!r}; did you mean {family} (every {every})?"
    close = suggest.closest(code, RULES)
    hint = (
        f"; did you mean {close}?"
        if close
        else " (a code is JS and three digits, such as JS201; `jobspec rules` lists them)"
    )
    return f"unknown rule code or prefix {word!r}{hint}"
