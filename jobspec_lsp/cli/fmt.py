"""`jobspec fmt`: each jobspec read, formatted with its project's options, and written
back (or to standard output for '-', or only listed with --check, or shown with --diff).

Exit 0 nothing to do or done, 1 --check/--diff found files to reformat, 2 an error (a
file unreadable, unparsable or refused; the others are still formatted).
"""

from __future__ import annotations

import difflib
import os
import sys
from pathlib import Path

from jobspec_lsp import kinds
from jobspec_lsp.cli.output import NOTHING_FOUND
from jobspec_lsp.cli.startup import started_after_one
from jobspec_lsp.fmt.format import FormatError, format_result, load_options
from jobspec_lsp.record import Record
from jobspec_lsp.text.positions import LineIndex
from jobspec_lsp.text.sources import CannotRead, discover, language_of, read_text, write_in_place


class _Tally(Record):
    """What the files formatted so far add up to: the exit status, the files changed (or
    that would be), left unchanged, not written and seen, the option warnings said."""

    __slots__ = ("status", "changed", "unchanged", "unwritten", "seen", "warned")

    def __init__(self) -> None:
        self.status = self.changed = self.unchanged = self.unwritten = self.seen = 0
        self.warned: set[str] = set()


def run(args) -> int:
    """`jobspec fmt PATH...`: the exit status."""
    tally = _Tally()
    for shown, path, error in started_after_one(discover(args.paths)):
        _format_file(args, tally, shown, path, error)
    if not args.quiet and (tally.changed or tally.unchanged or tally.unwritten):
        _summary(args, tally)
    if not tally.seen and tally.status == 0:
        print(NOTHING_FOUND, file=sys.stderr)
    return tally.status


def _format_file(args, tally: _Tally, shown: str, path: Path | None, error) -> None:
    """One file: read, formatted, and the result delivered as the flags say."""
    if error is None:
        try:
            data, text = read_text(path)
        except CannotRead as exc:
            error = str(exc)
    if error is not None:
        print(f"jobspec: error: cannot read {shown}: {error}", file=sys.stderr)
        tally.status = 2
        return
    if _left_as_script(args, shown, path, text):
        return
    tally.seen += 1
    if path is None:
        shown = args.stdin_filename or "-"
    new = _formatted(args, tally, shown, path, data, text)
    if new is None:
        tally.status = 2
        if path is None and not (args.check or args.diff):
            sys.stdout.write(text)  # a pipe gets its input back unchanged
        return
    if path is None and not (args.check or args.diff):
        sys.stdout.write(new)
    elif new == text:
        tally.unchanged += 1
    else:
        _deliver(args, tally, shown, path, text, new)


def _left_as_script(args, shown: str, path: Path | None, text: str) -> bool:
    """Whether the file is a script: fmt formats jobspec only (a script's text is the
    shell's, or Slurm's, and rewriting it as YAML would change what it does). Named
    explicitly, that is said; from standard input, it goes to standard output as it is."""
    name = args.stdin_filename if path is None else str(path)
    if not kinds.detect(name, text, explicit=True).is_script:
        return False
    if path is not None and shown == str(path) and shown in args.paths:
        print(f"jobspec: {shown}: a script, not a jobspec: left as it is", file=sys.stderr)
    if path is None and not (args.check or args.diff):
        sys.stdout.write(text)
    return True


def _formatted(args, tally: _Tally, shown: str, path: Path | None, data, text: str):
    """The formatted text, with the options of the file's project (their warnings said
    once); None when it cannot be formatted (said, with the place)."""
    if path is None:
        language = language_of(args.stdin_filename, data)
        options = load_options(Path(args.stdin_filename) if args.stdin_filename else Path.cwd())
    else:
        language = language_of(str(path), data)
        options = load_options(path)
    for w in options.warnings:
        if w not in tally.warned:
            tally.warned.add(w)
            print(f"jobspec: warning: {w}", file=sys.stderr)
    try:
        result = format_result(text, language, options)
    except FormatError as err:
        bom = 1 if text.startswith("\ufeff") else 0
        pos = LineIndex(text[bom:]).position(max(err.start - bom, 0))
        print(f"{shown}:{pos.line + 1}:{pos.character + 1}: error: {err.message}", file=sys.stderr)
        return None
    if result.why:  # a fallback layout: formatted, but say why (it is a bug to report)
        print(
            f"{shown}: note: formatted with the {result.layout!r} layout ({result.why}); "
            "please report this file",
            file=sys.stderr,
        )
    return result.text


def _deliver(args, tally: _Tally, shown: str, path: Path | None, text: str, new: str) -> None:
    """A file that changes: its diff shown (--diff), listed (--check) or written."""
    if args.diff or args.check:
        tally.changed += 1  # would be: nothing is written
        tally.status = max(tally.status, 1)
    if args.diff:
        sys.stdout.writelines(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                new.splitlines(keepends=True),
                fromfile=shown,
                tofile=shown,
            )
        )
    elif args.check:
        print(f"would reformat {shown}")
    else:
        assert path is not None  # stdin without --check/--diff went to stdout
        try:  # through a symbolic link: replace the file it points to, not the link
            write_in_place(Path(os.path.realpath(path)), new)
        except OSError as exc:
            print(f"jobspec: error: cannot write {shown}: {exc.strerror or exc}", file=sys.stderr)
            tally.status = 2
            tally.unwritten += 1
            return
        tally.changed += 1  # counted once it is on disk
        if not args.quiet:
            print(f"reformatted {shown}", file=sys.stderr)


def _summary(args, tally: _Tally) -> None:
    would = args.check or args.diff
    verb = "would be reformatted" if would else "reformatted"
    print(
        f"{tally.changed} file{'s' if tally.changed != 1 else ''} {verb}, {tally.unchanged} "
        f"{'already formatted' if would else 'left unchanged'}"
        + (f", {tally.unwritten} could not be written" if tally.unwritten else ""),
        file=sys.stderr,
    )
