"""`jobspec convert`: the command-line side of :mod:`jobspec_lsp.convert` and
:mod:`jobspec_lsp.migrate` (files, output, exit codes).

A Slurm, LSF or PBS batch script becomes a Flux batch script; a jobspec goes between
canonical and V1 form, or to and from a PSI/J job description. Exit status: 0 converted,
1 blocked (the blockers are printed like `jobspec check` text output,
``path:line:col: severity[CODE] message``), 2 a usage error or an unreadable file. The
result goes to standard output (or ``-o FILE``, or back to FILE with --in-place); the
changes made and the warnings go to standard error, so the output stays a clean document.
"""

from __future__ import annotations

import difflib
import json
import os
import sys
from pathlib import Path

import yaml

from jobspec_lsp import convert, kinds
from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import to_python
from jobspec_lsp.migrate import convert as migrate
from jobspec_lsp.script import sbatch
from jobspec_lsp.text.positions import LineIndex
from jobspec_lsp.text.sources import CannotRead, language_of, read_text, write_in_place

_SCHEDULERS = ("slurm", "lsf", "pbs", "sbatch")


def run(args) -> int:
    """`jobspec convert FILE`: the exit status."""
    if args.source == "auto":
        unreadable = _tell_source(args)
        if unreadable is not None:
            return unreadable
    if args.source in _SCHEDULERS or args.source == "auto":
        return _convert_script(args)
    return _convert_jobspec(args)


def _tell_source(args) -> int | None:
    """--from auto: ``args.source`` set to what FILE holds ("auto" stays for a batch
    script, whose scheduler the converter tells; "jobspec" for the rest); the exit status
    when FILE cannot be read."""
    args.source = "jobspec"
    if args.to is None and args.file != "-":
        try:
            _, head = read_text(Path(args.file))
        except CannotRead as exc:
            return _usage(f"cannot read {args.file}: {exc}")
        if migrate.has_directives(head) or args.diff or args.in_place:
            args.source = "auto"
        elif not kinds.detect(args.file, head, explicit=True).offers("format"):
            args.source = "auto"  # a script without directives: its launch lines
    elif args.to is None and args.file == "-":
        args.source = "auto"
    return None


# --------------------------------------------------------------------------- jobspec
def _convert_jobspec(args) -> int:
    """A jobspec to V1, canonical or PSI/J form, or a PSI/J job description to V1 (or
    canonical): the result on stdout (or -o), in --format when given."""
    if args.diff or args.in_place:
        return _usage("--diff and --in-place are for batch script conversions")
    if args.source == "psij" and args.to == "psij":
        return _usage("--from psij --to psij converts nothing")
    if args.source == "jobspec" and args.to is None:
        return _usage(
            "say what to convert to: --to v1, --to canonical or --to psij "
            "(or --from psij for a PSI/J job description)"
        )
    try:
        text, language = _read(args.file)
    except CannotRead as exc:
        return _usage(f"cannot read {args.file}: {exc}")
    shown = args.file
    conv, out_language = _converted(args, text, language)
    _print_diagnostics(shown, text, conv.warnings, sys.stderr)
    if not conv.ok:
        _print_diagnostics(shown, text, conv.blockers, sys.stdout)
        n = len(conv.blockers)
        print(
            f"jobspec: {shown} cannot be converted: {n} blocker{'s' if n != 1 else ''}",
            file=sys.stderr,
        )
        return 1
    if not args.quiet:
        _print_changes(shown, text, conv.changes, sys.stderr)
    assert conv.text is not None  # conv.ok
    return _write(_in_format(args, conv.text, out_language), args.output)


def _read(path: str) -> tuple[str, str]:
    """(text, language) of a file or '-' (stdin); CannotRead says why not."""
    _, text = read_text(None if path == "-" else Path(path))
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, language_of(path if path != "-" else None, text)


def _converted(args, text: str, language: str):
    """(the conversion, the language it is written in)."""
    if args.source == "psij":
        # inherit_environment (PSI/J's default): this process's environment, as
        # flux submit copies the submitter's; a relative directory: relative to here
        conv = convert.from_psij_text(text, language, environ=dict(os.environ), cwd=os.getcwd())
        if conv.text is not None and args.to == "canonical":
            step = convert.to_canonical(conv.text)
            conv = convert.Conversion(step.text, conv.changes, step.blockers, conv.warnings)
        return conv, "yaml"
    if args.to == "v1":
        return convert.to_v1(text, language), language
    if args.to == "canonical":
        return convert.to_canonical(text, language), language
    return convert.to_psij(text, language), "json"


def _in_format(args, out: str, out_language: str) -> str:
    """The converted text ``out`` in --format, when that is not the language it is in
    (a note when comments are lost)."""
    fmt = args.format or out_language
    if fmt == out_language:
        return out
    data = to_python(parse(out, out_language).root)
    if args.to == "psij":
        written = (
            json.dumps(data, indent=2, ensure_ascii=False) + "\n" if fmt == "json" else _yaml(data)
        )
    else:
        written = convert.dump(data, fmt)
    if out_language == "yaml" and "#" in out and not args.quiet:
        print(
            f"{args.file}: note: written as {fmt.upper()}, which has no comments", file=sys.stderr
        )
    return written


def _yaml(data) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1 << 16)


def _print_diagnostics(shown: str, text: str, diags: list[Diagnostic], stream) -> None:
    lines = LineIndex(text)
    for d in diags:
        pos = lines.position(d.start)
        stream.write(
            f"{shown}:{pos.line + 1}:{pos.character + 1}: {d.severity.label}[{d.code}] "
            f"{d.message}\n"
        )


def _print_changes(shown: str, text: str, changes, stream) -> None:
    lines = LineIndex(text)
    for ch in changes:
        pos = lines.position(ch.start)
        stream.write(f"{shown}:{pos.line + 1}:{pos.character + 1}: changed: {ch.message}\n")


# --------------------------------------------------------------------------- batch script
def _convert_script(args) -> int:
    """A Slurm, LSF or PBS script as a Flux batch script: the script on stdout (or -o, or
    in place, or as a diff); what could not be carried and what changed on stderr. Exit 1
    when the scheduler itself would refuse a directive (that line is left as it is) or the
    job has no Flux form (nothing is converted)."""
    refused = _script_options_refused(args)
    if refused is not None:
        return _usage(refused)
    try:
        _, text = read_text(None if args.file == "-" else Path(args.file))
    except CannotRead as exc:
        return _usage(f"cannot read {args.file}: {exc}")
    source = "auto" if args.source == "auto" else migrate.ALIASES.get(args.source, args.source)
    conv = migrate.convert(text, source)
    hints = (sbatch.SLURM_DIRECTIVE, sbatch.LSF_DIRECTIVE, sbatch.PBS_DIRECTIVE)
    diags = [d for d in sbatch.diagnostics(text, source) if d.code not in hints]
    if args.quiet:
        diags = [d for d in diags if d.severity <= 2]
    _print_diagnostics(args.file, text, diags, sys.stderr)
    if conv.refused:
        print(f"jobspec: {args.file}: not converted: {conv.refused}", file=sys.stderr)
        return 1
    if not conv.scheduler or (
        source != "auto" and not migrate.SCHEDULERS[source].SENTINEL_ANYWHERE.search(text)
    ):
        word = {"slurm": "#SBATCH", "lsf": "#BSUB", "pbs": "#PBS"}.get(source, "scheduler")
        print(f"jobspec: {args.file}: no {word} directives", file=sys.stderr)
    rc = _deliver_script(args, text, conv)
    if rc:
        return rc
    return 1 if any(d.severity == 1 for d in diags) else 0


def _script_options_refused(args) -> str | None:
    """Why the options do not go with a batch script conversion (-o FILE over FILE itself
    made --in-place, the original kept as .orig)."""
    if args.to is not None or args.format is not None:
        return f"--from {args.source} writes a Flux batch script: no --to or --format"
    if args.in_place and (args.file == "-" or args.output):
        return "--in-place needs a FILE and no -o"
    if args.in_place and args.diff:
        return "--in-place writes the file, --diff only shows the changes: choose one"
    if args.output and args.file != "-" and _same_file(args.file, args.output):
        args.in_place, args.output = True, None
    return None


def _deliver_script(args, text: str, conv) -> int:
    """The converted script shown as a diff, written in place (the original kept), or
    written to -o or stdout."""
    if args.diff:
        name = args.file
        sys.stdout.writelines(
            difflib.unified_diff(
                text.splitlines(True), conv.text.splitlines(True), name, name + " (Flux)"
            )
        )
        return 0
    if args.in_place:
        if not conv.changed:
            return 0
        why = _keep_original(Path(args.file), text)
        if why is not None:
            return _usage(why)
        return _write(conv.text, args.file)
    return _write(conv.text, args.output)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _keep_original(path: Path, text: str) -> str | None:
    """Write ``path``'s text to ``path.orig`` with the original's mode (a 0750 script's copy
    is not made world-readable, nor loses its exec bit); why not, or None."""
    backup = Path(str(path) + ".orig")
    try:
        mode = os.stat(path).st_mode & 0o7777
        fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return f"{backup} exists: move it away first (it may be an earlier original)"
    except OSError as exc:
        return f"cannot write {backup}: {exc.strerror or exc}"
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.chmod(backup, mode)  # after the write: a read-only original's copy is read-only
    except OSError as exc:
        return f"cannot write {backup}: {exc.strerror or exc}"
    return None


# --------------------------------------------------------------------------- output
def _usage(message: str) -> int:
    print(f"jobspec: error: {message}", file=sys.stderr)
    return 2


def _write(text: str, path: str | None) -> int:
    if not path or path == "-":
        sys.stdout.write(text)
        return 0
    target = Path(path)
    try:
        if target.exists():  # kept as a careful editor keeps it: inode, owner, mode, links
            write_in_place(target, text)
        else:
            with open(target, "x", encoding="utf-8", newline="") as fh:
                fh.write(text)
    except OSError as exc:
        return _usage(f"cannot write {path}: {exc.strerror or exc}")
    return 0
