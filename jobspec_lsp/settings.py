"""Every setting, declared once: its name in the project configuration (``jobspec.toml``
or ``[tool.jobspec]``), in the editor (the ``jobspec`` section of the LSP settings) and
on the command line; the values it takes, in words; and the one reader that checks a
value. :mod:`.config`, :mod:`.lsp.settings` and the CLI read these declarations, so a
value is judged the same way wherever it is given, and docs/configuration.md and
docs/server.md list the same keys (a test holds them to this table).

Pure: no files, no LSP.
"""

from __future__ import annotations

from collections.abc import Callable

from jobspec_lsp.diagnostics import VERSION_RULES, read_codes, unknown_code
from jobspec_lsp.fluxcli import model
from jobspec_lsp.record import Frozen
from jobspec_lsp.rules.targets import TARGETS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


class Invalid(ValueError):
    """A value the setting does not take; the message, when there is one, says why
    beyond the setting's ``want``."""


class Read(Frozen):
    """What a reader made of a value: the value to use, and what was left out of it
    (each with the word of the value it is about, for positions in a file)."""

    __slots__ = ("value", "left_out")
    value: Any
    left_out: tuple[tuple[str, str | None], ...]

    def __init__(self, value: Any, left_out: tuple[tuple[str, str | None], ...] = ()) -> None:
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "left_out", left_out)


class Setting(Frozen):
    __slots__ = ("attr", "want", "doc", "read", "toml", "editor", "flag", "extra")
    _uncompared = ("extra",)
    attr: str  # the name in Python (Config, Settings, Options)
    want: str  # the values it takes, in words
    doc: str
    read: Callable[[Any], Read]
    toml: str | None  # the key in the project configuration
    editor: str | None  # the key under "jobspec" in the editor's settings
    flag: str | None  # the command-line option
    extra: dict

    def __init__(
        self,
        attr: str,
        want: str,
        doc: str,
        read: Callable[[Any], Read],
        toml: str | None = None,
        editor: str | None = None,
        flag: str | None = None,
        extra: dict | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "attr", attr)
        put(self, "want", want)
        put(self, "doc", doc)
        put(self, "read", read)
        put(self, "toml", toml)
        put(self, "editor", editor)
        put(self, "flag", flag)
        put(self, "extra", {} if extra is None else extra)


def _codes(value: Any) -> Read:
    try:
        got = read_codes(value)
    except TypeError:
        raise Invalid() from None
    return Read(got.codes, tuple((unknown_code(w), w) for w in got.unknown))


def _choice(options: tuple[str, ...]) -> Callable[[Any], Read]:
    def read(value: Any) -> Read:
        if value not in options:
            raise Invalid()
        return Read(value)

    return read


def _bool(value: Any) -> Read:
    if not isinstance(value, bool):
        raise Invalid()
    return Read(value)


def _strings(what: str, nonempty: bool = False) -> Callable[[Any], Read]:
    def read(value: Any) -> Read:
        if not isinstance(value, list) or not all(isinstance(q, str) for q in value):
            raise Invalid()
        if nonempty and not value:
            raise Invalid()
        return Read(tuple(value))

    return read


def _flux_version(value: Any) -> Read:
    why = (
        model.version_problem(value)
        if isinstance(value, str)
        else 'write the version as a string, in quotes: "0.88"'
    )
    if why:
        raise Invalid(why)
    return Read(value)


def _path(value: Any) -> Read:
    if not isinstance(value, str) or not value or "\0" in value:
        raise Invalid()
    return Read(value)


def _url(value: Any) -> Read:
    """A base address: any string ("" or null in the editor: unset); the pages are found
    under it as on the project's site (``diagnostics.rule_url``)."""
    if not isinstance(value, str):
        raise Invalid()
    return Read(value or None)


SETTINGS: tuple[Setting, ...] = (
    Setting("select", "a list of codes", "report only these rule codes or prefixes",
            _codes, toml="select", editor="select", flag="--select"),
    Setting("ignore", "a list of codes", "never report these codes or prefixes",
            _codes, toml="ignore", editor="ignore", flag="--ignore"),
    Setting("target", f"one of {', '.join(TARGETS)}",
            "what an error means: the RFC texts or a real Flux component",
            _choice(TARGETS), toml="target", editor="target", flag="--target"),
    Setting("flux_version", "a Flux version in the option table (0.88)",
            "which Flux's command-line options directives and command lines are read with",
            _flux_version, toml="flux-version", editor="fluxVersion", flag="--flux-version"),
    Setting("version_rules", "auto, canonical or v1", "which jobspec version's rules apply",
            _choice(VERSION_RULES), toml="version-rules", editor="versionRules",
            flag="--version-rules"),
    Setting("exit_non_zero_on_warning", "true or false",
            "`jobspec check` exits 1 on warnings too", _bool,
            toml="exit-non-zero-on-warning", flag="--exit-non-zero-on-warning"),
    Setting("queues", "a list of queue names", "completed after `--queue` in batch scripts",
            _strings("queue names"), toml="queues"),
    Setting("site", "a directory (a site profile)",
            "check jobs against this site's own Flux configuration and resources "
            "(docs/site.md); relative to the configuration file's folder",
            _path, toml="site", editor="site", flag="--site"),
    Setting("files", "a non-empty list of file name patterns",
            "the documents the server treats as jobspec", _strings("file name patterns", True),
            editor="files"),
    Setting("docs_url", "a URL (the documentation site)",
            "the documentation site diagnostics link to, for a site that hosts its own "
            "copy: a rule's page is URL/rules/js202/ (default: the project's site)", _url,
            toml="docs-url", editor="docsUrl", flag="--docs-url"),
)  # fmt: skip
BY_TOML = {s.toml: s for s in SETTINGS if s.toml}
BY_EDITOR = {s.editor: s for s in SETTINGS if s.editor}
BY_ATTR = {s.attr: s for s in SETTINGS}
