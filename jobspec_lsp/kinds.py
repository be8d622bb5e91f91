"""The kind of a document, decided once: jobspec YAML, jobspec JSON, a Flux batch
script, a Slurm, LSF or PBS batch script, or nothing of ours.

:func:`detect` is the one detector (the CLI, the language server, `fmt` and the
conversions ask it); a :class:`Kind` says how its documents are read, which rules
apply to them (a rule's ``kinds``) and which features they offer, so the callers
dispatch on it once instead of asking "is it a script?" at every turn.

Pure: no LSP, no files.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import PurePath

from jobspec_lsp import boundary
from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.jobspec.tree import Document
from jobspec_lsp.record import Frozen
from jobspec_lsp.text.positions import LineIndex
from jobspec_lsp.text.sniff import has_directives, has_sentinel
from jobspec_lsp.text.sources import JOBSPEC_GLOBS, SCRIPT_SUFFIXES, language_of, option_lines

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

KINDS = (
    "jobspec-yaml",
    "jobspec-json",
    "flux-script",
    "slurm-script",
    "lsf-script",
    "pbs-script",
    "unknown",
)

# features a kind may offer (the server advertises all; a request on a kind that lacks
# one gets the empty answer)
FEATURES = (
    "diagnostics", "fix", "hover", "completion", "format", "symbols", "folding",
    "navigation", "inlay-hints", "convert", "migrate", "show-jobspec", "flux-version",
    "directives",
)  # fmt: skip


class Options(Frozen):
    """What a check is asked for: the rule selection, the target, the version rules of
    a jobspec, the Flux version of a script's options, the queues to complete. One
    value for the CLI and the server, made from their flags, settings and the project
    configuration."""

    __slots__ = ("select", "ignore", "target", "version_rules", "flux_version", "queues", "site")
    select: tuple[str, ...] | None
    ignore: tuple[str, ...]
    target: str
    version_rules: str
    flux_version: str | None
    queues: tuple[str, ...]
    site: Any  # a site profile (jobspec_lsp.site.profile.Site): JS65x check against it

    def __init__(
        self,
        select: tuple[str, ...] | None = None,
        ignore: tuple[str, ...] = (),
        target: str = "rfc",
        version_rules: str = "auto",
        flux_version: str | None = None,
        queues: tuple[str, ...] = (),
        site: Any = None,
    ) -> None:
        put = object.__setattr__
        put(self, "select", select)
        put(self, "ignore", ignore)
        put(self, "target", target)
        put(self, "version_rules", version_rules)
        put(self, "flux_version", flux_version)
        put(self, "queues", queues)
        put(self, "site", site)


class Kind(Frozen):
    """A kind of document and what is done with it. The methods are the features: each
    kind answers them its own way (a kind that lacks a feature answers empty)."""

    __slots__ = ("name", "language", "features", "summary")
    name: str
    language: str  # the reader: "yaml", "json", "script" or "" (none)
    features: frozenset[str]
    summary: str

    def __init__(self, name: str, language: str, features: frozenset[str], summary: str):
        put = object.__setattr__
        put(self, "name", name)
        put(self, "language", language)
        put(self, "features", features)
        put(self, "summary", summary)

    @property
    def is_jobspec(self) -> bool:
        return self.language in ("yaml", "json")

    @property
    def is_script(self) -> bool:
        return self.language == "script"

    def offers(self, feature: str) -> bool:
        return feature in self.features

    def read(self, text: str) -> Document:
        """The document model of ``text`` (a script is held as its text)."""
        return Document(text, LineIndex(text), None, [], self.language or "script")

    def reread(self, text: str, previous: Document | None, consume: bool = False) -> Document:
        """:meth:`read` of ``text``, an edit of ``previous`` (a document of this kind that
        :meth:`reread` or :meth:`read` built; only what changed may be read again;
        ``consume``: the caller gives ``previous`` up, see :mod:`.incremental`)."""
        return self.read(text)

    def read_bytes(self, data: bytes) -> Document:
        """:meth:`read` of a file's bytes (not UTF-8: the replacement character)."""
        return self.read(data.decode("utf-8", errors="replace"))

    def check(self, doc: Document, options: Options) -> list[Diagnostic]:
        return []

    def hover(self, doc: Document, offset: int, options: Options) -> tuple[str, int, int] | None:
        """(markdown, start, end) for the word at ``offset``, or None."""
        return None

    def complete(self, text: str, offset: int, options: Options):
        """(candidates, start, end) at ``offset`` (see :mod:`.completion`)."""
        return [], offset, offset


class JobspecKind(Kind):
    __slots__ = ()

    def read(self, text: str) -> Document:
        return boundary.load(JOBSPEC_SERVES["read"])(text, self.language)

    def reread(self, text: str, previous: Document | None, consume: bool = False) -> Document:
        if previous is None or previous.language != self.language:
            return self.read(text)
        reparse = boundary.load(JOBSPEC_SERVES["reread"])
        return reparse(previous, text, self.language, consume=consume)

    def read_bytes(self, data: bytes) -> Document:
        """The bytes decoded as UTF-8, where they are not said (JS9xx) at the byte."""
        return boundary.load(JOBSPEC_SERVES["read_bytes"])(data, self.language)

    def check(self, doc: Document, options: Options) -> list[Diagnostic]:
        return boundary.load(JOBSPEC_SERVES["check"])(
            doc,
            version_rules=options.version_rules,
            select=options.select,
            ignore=options.ignore,
            target=options.target,
            site=options.site,
        )

    def hover(self, doc: Document, offset: int, options: Options):
        if doc.root is None:
            return None
        hover = boundary.load(JOBSPEC_SERVES["hover"])
        h = hover.hover(doc, offset)
        if options.site is not None:
            got = hover.site_queue(doc, offset, options.site, h)
            if got is not None:
                return got
        return None if h is None else (h.markdown, h.start, h.end)

    def complete(self, text: str, offset: int, options: Options):
        completion = boundary.load(JOBSPEC_SERVES["complete"])
        if options.site is not None:  # the site's queues, properties, hosts where they go
            got = completion.site_queue_values(text, offset, self.language, options.site)
            if got is not None:
                return got
        return completion.complete_at(text, offset, self.language)


class _Reading:
    """The Flux version and the site's plugin options a script's options are read with."""

    def __init__(self, options: Options):
        self.model = boundary.load(SCRIPT_SERVES["model"])
        plugins = None
        if options.site is not None:
            plugins = boundary.load(SCRIPT_SERVES["plugins"])(options.site)[0] or None
        self.contexts = (
            self.model.using(options.flux_version),
            self.model.extra_options(plugins),
        )

    def __enter__(self) -> None:
        for c in self.contexts:
            c.__enter__()

    def __exit__(self, *exc: object) -> None:
        for c in reversed(self.contexts):
            c.__exit__(*exc)


class ScriptKind(Kind):
    """A batch script: its directives read as `flux batch` reads them (RFC 36), the
    Slurm ones converted, its flux command lines read as Flux reads them, all with the
    options of the chosen Flux version."""

    __slots__ = ()

    def check(self, doc: Document, options: Options) -> list[Diagnostic]:
        with _Reading(options):
            check = boundary.load(SCRIPT_SERVES["check"])
            return check(doc.text, options.select, options.ignore, site=options.site)

    def hover(self, doc: Document, offset: int, options: Options):
        with _Reading(options):
            return boundary.load(SCRIPT_SERVES["hover"])(doc.text, offset, options.site)

    def complete(self, text: str, offset: int, options: Options):
        with _Reading(options):
            complete = boundary.load(SCRIPT_SERVES["complete"])
            return complete(text, offset, options.queues, options.site)


# The declared boundary of each kind: the modules that read, check, hover and complete its
# documents, loaded when a document of the kind first needs them (a script's check loads
# neither the YAML reader nor the jobspec rules; tests/test_startup.py holds that)
JOBSPEC_SERVES = {
    "read": "jobspec_lsp.jobspec.document:parse",
    "read_bytes": "jobspec_lsp.jobspec.document:parse_bytes",
    "reread": "jobspec_lsp.jobspec.incremental:reparse",  # only an editor reads again
    "check": "jobspec_lsp.rules.analysis:check",
    "hover": "jobspec_lsp.features.hover",
    "complete": "jobspec_lsp.features.completion",
}
SCRIPT_SERVES = {
    "model": "jobspec_lsp.fluxcli.model",  # the option tables, per Flux version
    "plugins": "jobspec_lsp.site.cliplugins:for_site",  # a site's CLI plugins: with a site
    "check": "jobspec_lsp.script.batch:check_script",
    "hover": "jobspec_lsp.script.assist:hover_at",
    "complete": "jobspec_lsp.script.assist:complete_at",
    "commands": "jobspec_lsp.fluxcli.shell:segments",  # a script without directives
}


_JOBSPEC = frozenset(
    {"diagnostics", "fix", "hover", "completion", "format", "symbols", "folding",
     "navigation", "inlay-hints", "convert", "directives"}
)  # fmt: skip
# a script is never formatted and never read as YAML; its directives (and its flux
# command lines) get diagnostics, fixes, hover and completion. "directives": what
# directs the job is read (a jobspec whole, #flux:, #SBATCH, #BSUB and #PBS lines);
# "convert": V1 <-> canonical; "migrate": to #flux: directives
_SCRIPT = frozenset({"diagnostics", "fix", "hover", "completion", "flux-version"})

JOBSPEC_YAML = JobspecKind("jobspec-yaml", "yaml", _JOBSPEC, "a jobspec in YAML (RFC 14/25)")
JOBSPEC_JSON = JobspecKind("jobspec-json", "json", _JOBSPEC, "a jobspec in JSON (RFC 14/25)")
FLUX_SCRIPT = ScriptKind(
    "flux-script",
    "script",
    _SCRIPT | {"show-jobspec", "directives"},
    "a Flux batch script (RFC 36 directives) or a shell script that runs flux commands",
)
SLURM_SCRIPT = ScriptKind(
    "slurm-script", "script", _SCRIPT | {"migrate", "directives"}, "a Slurm batch script (#SBATCH)"
)
LSF_SCRIPT = ScriptKind(
    "lsf-script",
    "script",
    _SCRIPT | {"migrate", "directives"},
    "an LSF batch script (#BSUB, with LLNL's -nnodes)",
)
PBS_SCRIPT = ScriptKind(
    "pbs-script",
    "script",
    _SCRIPT | {"migrate", "directives"},
    "a PBS batch script (#PBS: PBS Pro select chunks, Torque nodes:ppn)",
)
UNKNOWN = Kind("unknown", "", frozenset(), "not a document this tool reads")
BY_NAME = {
    k.name: k
    for k in (
        JOBSPEC_YAML,
        JOBSPEC_JSON,
        FLUX_SCRIPT,
        SLURM_SCRIPT,
        LSF_SCRIPT,
        PBS_SCRIPT,
        UNKNOWN,
    )
}

# editors' language ids: those jobspec is written in, and those scripts are
JOBSPEC_LANGUAGES = ("yaml", "json", "jsonc", "flux-jobspec")
SCRIPT_LANGUAGES = (
    "shellscript", "sh", "bash", "zsh", "ksh", "csh", "tcsh", "python", "lua", "perl",
    "plaintext", "text", "flux-batch",
)  # fmt: skip

SCAN = 200_000  # characters looked at to decide
_LOOKS = re.compile(r'^(resources|tasks)\s*:|"(resources|tasks)"\s*:', re.M)
_BSUB = re.compile(r"^#BSUB(?=[ \t]|$)", re.M)
_PBS = re.compile(r"^#PBS(?=[ \t]|$)", re.M)


def looks_like_jobspec(text: str) -> bool:
    """Whether the top level has both ``resources`` and ``tasks`` (a jobspec whatever
    its name)."""
    return {a or b for a, b in _LOOKS.findall(text[:SCAN])} == {"resources", "tasks"}


def _jobspec(name: str | None, text: str, language_id: str | None) -> Kind:
    return JOBSPEC_JSON if language_of(name, text[:4096], language_id) == "json" else JOBSPEC_YAML


def _named_jobspec(name: str | None, globs) -> bool:
    if not name:
        return False
    base = PurePath(name).name
    return any(fnmatch.fnmatch(base, g) or fnmatch.fnmatch(name, g) for g in globs)


def script_kind(text: str) -> Kind | None:
    """The kind of script ``text`` is by its directives (None: it has none)."""
    head = text[:SCAN]
    if has_sentinel(head):
        return FLUX_SCRIPT  # a half-migrated script too: the Slurm rules apply to it
    if has_directives(head):
        return SLURM_SCRIPT
    if _BSUB.search(head):
        return LSF_SCRIPT
    if _PBS.search(head):
        return PBS_SCRIPT
    return None


def flux_directives(name: str | None, text: str) -> bool:
    """Whether a file is a Flux batch script by its directives alone (a sentinel, or a
    look-alike of one), whatever its first line: what a directory search and the
    pre-commit hook take as a script to check."""

    return not _named_jobspec(name, JOBSPEC_GLOBS) and has_sentinel(text[:SCAN])


def detect(
    name: str | None,
    text: str,
    language_id: str | None = None,
    *,
    globs=JOBSPEC_GLOBS,
    explicit: bool = False,
) -> Kind:
    """The kind of the document named ``name`` (a path or URI path; None for standard
    input) holding ``text``, opened in an editor with ``language_id`` (None outside
    one). ``globs``: the names that are jobspec whatever they hold (the editor's
    ``jobspec.files``). ``explicit``: the user named this file (`jobspec check
    FILE`), so what is not a script is read as a jobspec rather than left alone."""
    lid = (language_id or "").lower()
    jobspec_lang = lid.startswith(("yaml", "json")) or "jobspec" in lid
    if lid and not jobspec_lang and lid not in SCRIPT_LANGUAGES:
        return UNKNOWN  # a language of its own (Python tooling, Markdown, ...)
    if (not lid or jobspec_lang) and _named_jobspec(name, globs):
        return _jobspec(name, text, language_id)
    data_named = bool(name) and str(name).lower().endswith((".yaml", ".yml", ".json"))
    if jobspec_lang or data_named:
        # YAML or JSON: a jobspec by its keys; a script only with a #! line (Flux's batch
        # needs one), so a `flux:` key in some other YAML is not taken for a sentinel
        if looks_like_jobspec(text):
            return _jobspec(name, text, language_id)
        if text.startswith(("#!", "\ufeff#!")):
            return script_kind(text) or UNKNOWN
        if explicit and not lid:
            return _jobspec(name, text, language_id)
        return UNKNOWN
    found: Kind | None
    if looks_like_jobspec(text) and not text.startswith(("#!", "\ufeff#!")):
        found = FLUX_SCRIPT if script_kind(text) is FLUX_SCRIPT else None
    else:
        found = script_kind(text)
    if found is not None:
        return found
    if (lid or explicit) and option_lines(text):
        return FLUX_SCRIPT  # directives without their sentinel (JS566 says so, and adds it)
    if lid or _script_shaped(name, text):
        if boundary.load(SCRIPT_SERVES["commands"])(text[:SCAN]) or (explicit and not lid):
            return FLUX_SCRIPT
    if lid:
        return UNKNOWN
    if explicit:
        return _jobspec(name, text, language_id)
    return _jobspec(name, text, language_id) if looks_like_jobspec(text) else UNKNOWN


def _script_shaped(name: str | None, text: str) -> bool:
    return text.startswith(("#!", "\ufeff#!")) or bool(
        name and name.lower().endswith(SCRIPT_SUFFIXES)
    )
