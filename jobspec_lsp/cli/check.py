"""`jobspec check`: each file read, checked as its kind and its project's configuration
say, fixed when asked (--fix), and written in the report its --format names.

Exit codes (like ruff): 0 no error-severity diagnostic, 1 at least one, 2 a usage error,
a configuration or site profile that could not be read, or a file that could not be
read or written (the others are still checked).
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

from jobspec_lsp import config, kinds
from jobspec_lsp.boundary import load
from jobspec_lsp.cli.output import NOTHING_FOUND, REPORTS, UsageError, emit_text, shown_path
from jobspec_lsp.cli.startup import started_after_one
from jobspec_lsp.diagnostics import Severity, read_codes
from jobspec_lsp.record import Record
from jobspec_lsp.rules.targets import DEFAULT as DEFAULT_TARGET
from jobspec_lsp.text.sources import CannotRead, discover, read_bytes, text_problem, write_in_place

# the optional parts of a check, loaded only when asked for: the fixes (they load the YAML
# reader: --fix), the site profile's reader (tomllib, dataclasses: --site)
FIX = "jobspec_lsp.features.fixes:apply_fixes"
SITE = "jobspec_lsp.cli.sites:load_site"

_warned: set[str] = set()  # the configuration's problems and the notes: once per process


class _Tally(Record):
    """What the files checked so far add up to: the exit status, the diagnostics of each
    severity, the files checked, the fixes written, whether warnings fail (a flag, or a
    configuration read so far) and whether a site profile could not be read."""

    __slots__ = ("status", "counts", "checked", "fixed", "fail_on_warning", "broken_site")

    def __init__(self, fail_on_warning: bool) -> None:
        self.status = 0
        self.counts = {s: 0 for s in Severity}
        self.checked = self.fixed = 0
        self.fail_on_warning = fail_on_warning
        self.broken_site = False

    def add(self, diags) -> None:
        for d in diags:
            self.counts[d.severity] += 1
        if any(d.severity == Severity.ERROR for d in diags):
            self.status = max(self.status, 1)
        if self.fail_on_warning and any(d.severity == Severity.WARNING for d in diags):
            self.status = max(self.status, 1)


class _File(Record):
    """One file as `check` reads it: the name its lines show, its path (None: standard
    input), the name its kind is told by, where its configuration is found, its bytes
    and its text."""

    __slots__ = ("shown", "path", "name", "where", "data", "text")

    def __init__(self, shown: str, path: Path | None, data: bytes, stdin_filename) -> None:
        self.path, self.data = path, data
        self.name = str(path) if path is not None else stdin_filename
        if path is None:
            self.shown = stdin_filename or "-"
            self.where = Path(stdin_filename) if stdin_filename else None
        else:
            self.shown, self.where = shown, path
        self.text = data.decode("utf-8", "replace")


class _Checking(Record):
    """How a file is checked: the flags, its project's configuration, the codes selected
    and ignored; the run's tally (a site profile that could not be read is counted)."""

    __slots__ = ("args", "cfg", "select", "ignore", "tally")

    def __init__(self, args, cfg, select, ignore, tally: _Tally) -> None:
        self.args, self.cfg, self.select, self.ignore = args, cfg, select, ignore
        self.tally = tally

    def options(self) -> kinds.Options:
        args, cfg = self.args, self.cfg
        return kinds.Options(
            select=tuple(self.select) if self.select else None,
            ignore=tuple(self.ignore or ()),
            target=args.target or cfg.target or DEFAULT_TARGET,
            version_rules=args.version_rules or cfg.version_rules or "auto",
            flux_version=args.flux_version or cfg.flux_version,
            site=self.site(args.site or cfg.site),
        )

    def docs_url(self) -> str | None:
        """The base of the rule pages the report links to: --docs-url, else docs-url."""
        return self.args.docs_url or self.cfg.docs_url

    def site(self, directory: str | None):
        if not directory:
            return None
        site = load(SITE)(directory)
        if site is None:  # said once; the checks that need no site go on, and exit 2
            self.tally.broken_site = True
        return site

    def diagnose(self, file: _File, text: str, data: bytes | None = None):
        """(document, diagnostics) of the file's ``text`` (its ``data``, when given)."""
        kind = kinds.detect(file.name, text, explicit=True)
        options = self.options()
        _note(file, kind)
        doc = kind.read_bytes(data) if data is not None else kind.read(text)
        return doc, kind.check(doc, options)


def run(args) -> int:
    """`jobspec check PATH...`: the exit status."""
    select = _codes(args.select, "--select")
    ignore = _codes(args.ignore, "--ignore") or []
    tally = _Tally(bool(args.exit_non_zero_on_warning))
    report = load(REPORTS[args.format])(sys.stdout)
    for shown, path, error in started_after_one(discover(args.paths)):
        _check_file(args, tally, report, shown, path, error, select, ignore)
    report.end()
    if args.format == "text" and not args.quiet:
        _summary(tally)
    if tally.broken_site:
        tally.status = 2
    if not tally.checked and tally.status == 0:
        print(NOTHING_FOUND, file=sys.stderr)
    return tally.status


def _check_file(args, tally: _Tally, report, shown, path, error, select, ignore) -> None:
    """One file: read, its configuration found, checked, fixed when asked, reported."""
    if error is None:
        try:
            data = read_bytes(path)
        except CannotRead as exc:
            error = str(exc)
    if error is not None:
        print(f"jobspec: error: cannot read {shown}: {error}", file=sys.stderr)
        tally.status = 2
        report.unreadable(shown, error)
        return
    file = _File(shown, path, data, args.stdin_filename)
    checking = _configured(args, tally, file, select, ignore)
    why = _not_a_script(file)
    if why is not None:  # what `convert` says of it too (a jobspec's bytes are JS9xx)
        print(f"jobspec: error: cannot read {file.shown}: {why}", file=sys.stderr)
        tally.status = 2
        return
    tally.checked += 1
    found = checking.diagnose(file, file.text, file.data)
    if args.fix or args.unsafe_fixes:
        found = _fixed(file, checking, tally, *found)
        if found is None:
            return
    doc, diags = found
    tally.add(diags)
    if (args.fix or args.unsafe_fixes) and path is None:
        emit_text(sys.stderr, file.shown, doc, diags)  # stdout holds the fixed text
    else:
        report.file(file.shown, doc, diags, checking.docs_url())


def _configured(args, tally: _Tally, file: _File, select, ignore) -> _Checking:
    """How ``file`` is checked: the flags over its project's configuration (whose problems
    are said once each, and make the exit status 2)."""
    cfg = _project(file.where)
    if cfg.problems:
        tally.status = 2
    tally.fail_on_warning = tally.fail_on_warning or cfg.exit_non_zero_on_warning
    chosen = select or (list(cfg.select) if cfg.select else None)
    ignored = list(cfg.ignored_for(file.where)) + ignore or None
    return _Checking(args, cfg, chosen, ignored, tally)


def _project(path):
    """The project configuration for a file (its folder's for stdin); its problems
    printed once each."""
    cfg = config.load(path if path is not None else Path.cwd())
    for p in cfg.problems:
        line = f"{shown_path(str(p))}"
        if line not in _warned:
            _warned.add(line)
            print(f"jobspec: error: {line}", file=sys.stderr)
    return cfg


def _note(file: _File, kind) -> None:
    """Once per file, however many --fix rounds: a file that is no jobspec nor Flux batch
    script, or a script of another scheduler that `jobspec convert` would write for Flux."""
    shown = "-" if file.path is None else shown_path(str(file.path))
    if f"note {shown}" in _warned:
        return
    if not kind.offers("directives"):
        _warned.add(f"note {shown}")
        print(f"jobspec: note: {shown}: {kind.summary}", file=sys.stderr)
    elif kind.offers("migrate"):
        _warned.add(f"note {shown}")
        print(
            f"jobspec: note: {shown}: {kind.summary}; `jobspec convert {shown}` writes it as a "
            "Flux batch script (--diff to see the changes)",
            file=sys.stderr,
        )


def _not_a_script(file: _File) -> str | None:
    """Why a script (a file that is no jobspec) cannot be read as one: not UTF-8, binary."""
    why = text_problem(file.data)
    if why is None:
        return None
    return None if kinds.detect(file.name, file.text, explicit=True).offers("format") else why


def _fixed(file: _File, checking: _Checking, tally: _Tally, doc, diags):
    """--fix: the fixes applied until none is left, the file written (standard input's to
    standard output) and checked again; its (document, diagnostics), or None when the
    fixed text could not be written (said, exit 2)."""
    if any(p.code == "JS911" for p in diags):
        return doc, diags
    analyse = functools.partial(checking.diagnose, file)
    unsafe = bool(checking.args.unsafe_fixes)
    new, applied = load(FIX)(analyse, file.text, unsafe=unsafe)
    if not applied:
        if file.path is None:
            sys.stdout.write(file.text)
        return doc, diags
    if file.path is None:
        sys.stdout.write(new)  # stdin: the fixed text goes to stdout
    elif not _written(file, new, tally):
        return None
    tally.fixed += len(applied)  # counted once they are on disk
    if not checking.args.quiet:
        for code, title in applied:
            print(f"{shown_path(file.shown)}: fixed {code}: {title}", file=sys.stderr)
    return checking.diagnose(file, new)


def _written(file: _File, new: str, tally: _Tally) -> bool:
    """The fixed text written over the file (through a symbolic link: the file it names)."""
    try:
        write_in_place(Path(os.path.realpath(file.path)), new)  # type: ignore[arg-type]
    except OSError as exc:
        print(f"jobspec: error: cannot write {file.shown}: {exc.strerror or exc}", file=sys.stderr)
        tally.status = 2
        return False
    return True


def _summary(tally: _Tally) -> None:
    """The text format's last line: what was found (and fixed), or that all passed."""
    total = sum(tally.counts.values())
    fixed = f" ({tally.fixed} fixed)" if tally.fixed else ""
    if total:
        parts = [
            f"{n} {s.label}{'s' if n != 1 and s != Severity.INFORMATION else ''}"
            for s, n in tally.counts.items()
            if n
        ]
        print(
            "Found " + ", ".join(parts) + f" remaining{fixed}."
            if fixed
            else "Found " + ", ".join(parts) + ".",
            file=sys.stderr,
        )
    elif tally.status == 0 and tally.checked:
        print(f"All checks passed{fixed}.", file=sys.stderr)


def _codes(values, option: str):
    """--select/--ignore (each may be given again, each a comma-separated list): the
    codes, or a usage error naming every code that is no rule's."""
    if not values:
        return None
    got = read_codes(values)
    if got.unknown:
        raise UsageError("\njobspec: error: ".join(f"{option}: {p}" for p in got.problems()))
    return list(got.codes) or None
