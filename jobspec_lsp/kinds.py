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

from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.jobspec.tree import Document
from jobspec_lsp.record import Frozen
from jobspec_lsp.text.positions import LineIndex
from jobspec_lsp.text.sniff import has_sentinel
from jobspec_lsp.text.sources import JOBSPEC_GLOBS, SCRIPT_SUFFIXES, language_of

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
        from jobspec_lsp.jobspec.document import parse  # deferred: libyaml, only for a jobspec

        return parse(text, self.language)

    def reread(self, text: str, previous: Document | None, consume: bool = False) -> Document:
        if previous is None or previous.language != self.language:
            return self.read(text)
        from jobspec_lsp.jobspec import incremental  # deferred: only an editor reads again

        return incremental.reparse(previous, text, self.language, consume=consume)

    def read_bytes(self, data: bytes) -> Document:
        """The bytes decoded as UTF-8, where they are not said (JS9xx) at the byte."""
        from jobspec_lsp.jobspec.document import (  # deferred: libyaml, only for a jobspec
            parse_bytes,  # deferred: libyaml, only for a jobspec
        )

        return parse_bytes(data, self.language)

    def check(self, doc: Document, options: Options) -> list[Diagnostic]:
        from jobspec_lsp.rules import (  # deferred: each kind loads its readers when first used
            analysis,  # deferred: each kind loads its readers when first used
        )

        out = analysis.check(
            doc,
            version_rules=options.version_rules,
            select=options.select,
            ignore=options.ignore,
            target=options.target,
            site=options.site,
        )
        return out

    def hover(self, doc: Document, offset: int, options: Options):
        from jobspec_lsp.features import (  # deferred: each kind loads its readers when first used
            hover,  # deferred: each kind loads its readers when first used
        )

        if doc.root is None:
            return None
        h = hover.hover(doc, offset)
        if options.site is not None:
            got = hover.site_queue(doc, offset, options.site, h)
            if got is not None:
                return got
        return None if h is None else (h.markdown, h.start, h.end)

    def complete(self, text: str, offset: int, options: Options):
        from jobspec_lsp.features import (  # deferred: each kind loads its readers when first used
            completion,  # deferred: each kind loads its readers when first used
        )

        if options.site is not None:  # the site's queues, properties, hosts where they go
            got = completion.site_queue_values(text, offset, self.language, options.site)
            if got is not None:
                return got
        return completion.complete_at(text, offset, self.language)


def _plugins(options: Options):
    """The options the site's own Flux CLI plugins add (None: no site, or none)."""
    if options.site is None:
        return None
    from jobspec_lsp.site import cliplugins  # deferred: only with a site profile

    return cliplugins.for_site(options.site)[0] or None


class ScriptKind(Kind):
    """A batch script: its directives read as `flux batch` reads them (RFC 36), the
    Slurm ones converted, its flux command lines read as Flux reads them, all with the
    options of the chosen Flux version."""

    __slots__ = ()

    def check(self, doc: Document, options: Options) -> list[Diagnostic]:
        from jobspec_lsp.fluxcli import (  # deferred: each kind loads its readers when first used
            model,  # deferred: each kind loads its readers when first used
        )
        from jobspec_lsp.script.batch import (  # deferred: each kind loads its readers when first used
            check_script,  # deferred: each kind loads its readers when first used
        )

        with model.using(options.flux_version), model.extra_options(_plugins(options)):
            return check_script(doc.text, options.select, options.ignore, site=options.site)

    def hover(self, doc: Document, offset: int, options: Options):
        from jobspec_lsp.fluxcli import (  # deferred: each kind loads its readers when first used
            model,  # deferred: each kind loads its readers when first used
        )
        from jobspec_lsp.script.batch import (  # deferred: each kind loads its readers when first used
            hover_at,  # deferred: each kind loads its readers when first used
        )

        with model.using(options.flux_version), model.extra_options(_plugins(options)):
            return hover_at(doc.text, offset, options.site)

    def complete(self, text: str, offset: int, options: Options):
        from jobspec_lsp.fluxcli import (  # deferred: each kind loads its readers when first used
            model,  # deferred: each kind loads its readers when first used
        )
        from jobspec_lsp.script.batch import (  # deferred: each kind loads its readers when first used
            complete_at,  # deferred: each kind loads its readers when first used
        )

        with model.using(options.flux_version), model.extra_options(_plugins(options)):
            return complete_at(text, offset, options.queues, options.site)


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
    from jobspec_lsp.script.sbatch import (  # deferred: each kind loads its readers when first used
        has_directives,  # deferred: each kind loads its readers when first used
    )

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
    if lid or _script_shaped(name, text):
        from jobspec_lsp.fluxcli import shell  # deferred: a kind's readers, when first used

        if shell.segments(text[:SCAN]) or (explicit and not lid):
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
