"""`jobspec convert` and `jobspec new`: the command-line side of
:mod:`jobspec_lsp.convert` (argument parsing, files, output, exit codes).

``register(subparsers)`` adds both subcommands to the `jobspec` parser; each
sets ``func`` to a function taking the parsed arguments and returning the exit
status: 0 converted, 1 blocked (the blockers are printed like `jobspec check`
text output, ``path:line:col: severity[CODE] message``), 2 a usage error or an
unreadable file.  The result goes to standard output (or ``-o FILE``); the
changes made and the warnings go to standard error, so the output stays a
clean document.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from jobspec_lsp import kinds
from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.text.positions import LineIndex
from jobspec_lsp.text.sources import CannotRead, language_of, read_text, write_in_place

NEW_HELP = "the V1 jobspec `flux submit` would build for these options"
NEW_DESCRIPTION = (
    "Write the jobspec `flux submit` would build (V1, slot label `task`, duration 0 when "
    "no -t) for the same options, to keep in a file or pass to `flux job submit` (--format "
    "json). Exit 0 written, 1 the options make a jobspec that does not check clean, 2 usage "
    "error."
)
NEW_EPILOG = "example: jobspec new -N2 -n8 -c2 -t 1h --job-name sim -- ./sim --steps 100"


def register(subparsers) -> None:
    """Add the `convert` and `new` subcommands to an argparse subparsers object."""
    cv = subparsers.add_parser(
        "convert",
        help="Slurm/LSF/PBS scripts -> Flux; canonical <-> V1 jobspec; PSI/J <-> jobspec",
        description="Convert a Slurm, LSF or PBS batch script to a Flux batch script that runs "
        "the same job (directives, launch lines, scheduler variables; see docs/migration.md), "
        "a jobspec between canonical (RFC 14) and V1 (RFC 25) form, or a PSI/J job "
        "description to and from V1. Conversions edit the file's text, so comments and "
        "layout are kept; every change is listed on stderr. Exit 0 converted, 1 impossible "
        "(the blockers are listed), 2 error.",
    )
    cv.add_argument("file", metavar="FILE", help="the input ('-' for stdin)")
    cv.add_argument(
        "--to", choices=("v1", "canonical", "psij"), help="the target (default v1 with --from psij)"
    )
    cv.add_argument(
        "--from",
        dest="source",
        choices=("auto", "jobspec", "psij", "slurm", "lsf", "pbs", "sbatch"),
        default="auto",
        help="what FILE holds (default auto: a batch script with #SBATCH, #BSUB or #PBS "
        "directives is converted to a Flux batch script — directives, launch lines and "
        "scheduler variables, everything else kept byte for byte — anything else is a "
        "jobspec; sbatch is slurm)",
    )
    cv.add_argument(
        "--diff",
        action="store_true",
        help="print what a batch script conversion changes, as a unified diff",
    )
    cv.add_argument(
        "--in-place",
        action="store_true",
        help="write a converted batch script back to FILE, the original kept as FILE.orig",
    )
    cv.add_argument(
        "--format",
        choices=("yaml", "json"),
        help="output format (default: the input's for jobspec conversions, JSON "
        "for --to psij, YAML for --from psij)",
    )
    cv.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    cv.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="do not list the changes made (warnings are still shown)",
    )
    cv.set_defaults(func=cmd_convert)

    # `jobspec new` reads its options itself, as flux submit does (new_main); this entry
    # only lists it in `jobspec --help`
    subparsers.add_parser("new", help=NEW_HELP, description=NEW_DESCRIPTION, epilog=NEW_EPILOG)


# --------------------------------------------------------------------------- convert
def _read(path: str) -> tuple[str, str]:
    """(text, language) of a file or '-' (stdin); CannotRead says why not."""
    _, text = read_text(None if path == "-" else Path(path))
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, language_of(path if path != "-" else None, text)


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


def _usage(message: str) -> int:
    print(f"jobspec: error: {message}", file=sys.stderr)
    return 2


_SCHEDULERS = ("slurm", "lsf", "pbs", "sbatch")


def cmd_convert(args) -> int:
    from jobspec_lsp import convert  # deferred: the converters, only where one runs

    if args.source == "auto":
        args.source = "jobspec"
        if args.to is None and args.file != "-":
            try:
                _, head = read_text(Path(args.file))
            except CannotRead as exc:
                return _usage(f"cannot read {args.file}: {exc}")
            from jobspec_lsp.migrate import convert as migrate  # deferred: start-up

            if migrate.has_directives(head) or args.diff or args.in_place:
                args.source = "auto"
            elif not kinds.detect(args.file, head, explicit=True).offers("format"):
                args.source = "auto"  # a script without directives: its launch lines
        elif args.to is None and args.file == "-":
            args.source = "auto"
    if args.source in _SCHEDULERS or args.source == "auto":
        return _convert_script(args)
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
    if args.source == "psij":
        # inherit_environment (PSI/J's default): this process's environment, as
        # flux submit copies the submitter's; a relative directory: relative to here
        conv = convert.from_psij_text(text, language, environ=dict(os.environ), cwd=os.getcwd())
        out_language = "yaml"
        if conv.text is not None and args.to == "canonical":
            step = convert.to_canonical(conv.text)
            conv = convert.Conversion(step.text, conv.changes, step.blockers, conv.warnings)
    elif args.to == "v1":
        conv, out_language = convert.to_v1(text, language), language
    elif args.to == "canonical":
        conv, out_language = convert.to_canonical(text, language), language
    else:
        conv, out_language = convert.to_psij(text, language), "json"
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
    out = conv.text
    assert out is not None  # conv.ok
    fmt = args.format or out_language
    if fmt != out_language:
        from jobspec_lsp.jobspec.document import parse  # deferred: libyaml, where YAML is read
        from jobspec_lsp.jobspec.tree import to_python  # deferred: with the reading above

        data = to_python(parse(out, out_language).root)
        if args.to == "psij":
            out = (
                json.dumps(data, indent=2, ensure_ascii=False) + "\n"
                if fmt == "json"
                else _yaml(data)
            )
        else:
            out = convert.dump(data, fmt)
        if out_language == "yaml" and "#" in (conv.text or "") and not args.quiet:
            print(
                f"{shown}: note: written as {fmt.upper()}, which has no comments", file=sys.stderr
            )
    return _write(out, args.output)


def _convert_script(args) -> int:
    """A Slurm, LSF or PBS script as a Flux batch script: the script on stdout (or -o, or
    in place, or as a diff); what could not be carried and what changed on stderr. Exit 1
    when the scheduler itself would refuse a directive (that line is left as it is) or the
    job has no Flux form (nothing is converted)."""
    import difflib  # deferred: only for --diff

    from jobspec_lsp.migrate import convert as migrate  # deferred: start-up
    from jobspec_lsp.script import sbatch  # deferred: each command imports what it needs

    if args.to is not None or args.format is not None:
        return _usage(f"--from {args.source} writes a Flux batch script: no --to or --format")
    if args.in_place and (args.file == "-" or args.output):
        return _usage("--in-place needs a FILE and no -o")
    if args.in_place and args.diff:
        return _usage("--in-place writes the file, --diff only shows the changes: choose one")
    if args.output and args.file != "-" and _same_file(args.file, args.output):
        args.in_place, args.output = True, None  # -o FILE over FILE: the original kept as .orig
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
    if args.diff:
        name = args.file
        sys.stdout.writelines(
            difflib.unified_diff(
                text.splitlines(True), conv.text.splitlines(True), name, name + " (Flux)"
            )
        )
        rc = 0
    elif args.in_place:
        rc = 0
        if conv.changed:
            why = _keep_original(Path(args.file), text)
            if why is not None:
                return _usage(why)
            rc = _write(conv.text, args.file)
    else:
        rc = _write(conv.text, args.output)
    if rc:
        return rc
    return 1 if any(d.severity == 1 for d in diags) else 0


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


def _yaml(data) -> str:
    import yaml  # deferred: PyYAML, only where YAML is read or written

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1 << 16)


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


# --------------------------------------------------------------------------- new
def new_main(argv: list[str]) -> int:
    """`jobspec new ARGS`, its options read by flux-submit's rules (argparse would
    otherwise take the command's own options after the first positional)."""
    from jobspec_lsp import convert  # deferred: the converters, only where one runs

    if argv[:1] == ["--from-batch"] or any(a.startswith("--from-batch=") for a in argv[:1]):
        return _from_batch(argv)
    if argv[:1] in (["-h"], ["--help"]):
        from jobspec_lsp.fluxcli import (  # deferred: flux submit's reading, only for `jobspec new`
            submit,  # deferred: flux submit's reading, only for `jobspec new`
        )

        print(submit.help_text(NEW_DESCRIPTION, NEW_EPILOG))
        return 0
    from jobspec_lsp.config import load  # deferred: the project configuration
    from jobspec_lsp.fluxcli import model  # deferred: each command imports what it needs (start-up)

    argv, site_dir = _site_option(argv)
    cfg = load(Path.cwd())
    if site_dir is False or site_dir is True:
        print("jobspec new: error: --site needs a directory", file=sys.stderr)
        return 2
    site, extra = None, None
    if site_dir or cfg.site:
        from jobspec_lsp.cli.main import load_site  # deferred: only with a site profile
        from jobspec_lsp.site import cliplugins  # deferred: only with a site profile

        site = load_site(site_dir or cfg.site)
        extra = cliplugins.for_site(site)[0]  # the site's own flux submit options
    try:
        with model.using(cfg.flux_version), model.extra_options(extra):
            conv = convert.from_command_line(argv)
            if conv.ok and site is not None:
                conv.blockers.extend(site_findings(argv, conv.text or "", site))
                conv.changes.extend(_plugin_notes(argv, extra or {}))
    except convert.UsageError as err:
        print(f"jobspec new: error: {err}", file=sys.stderr)
        return 2
    if conv.blockers:
        conv.text = None
    return _emit_new(conv)


def _plugin_notes(argv: list[str], extra: dict) -> list:
    """A note for each of the site's plugin options the command line gives: the plugin
    applies it when flux submit runs (it is read, not run, here)."""
    from jobspec_lsp.convert.common import Change  # deferred: only with a site profile

    names = {f"--{o.long}" for o in extra.get("submit", ())}
    given = [a.split("=", 1)[0] for a in argv if a.split("=", 1)[0] in names]
    return [
        Change(f"{n}: the site's CLI plugin applies it when flux submit runs; this jobspec "
               "is without it", 0, 0)
        for n in dict.fromkeys(given)
    ]  # fmt: skip


def _site_option(argv: list[str]) -> tuple[list[str], str | None | bool]:  # False: no DIR
    """``argv`` without `jobspec new`'s own ``--site DIR`` (before ``--`` or the command),
    and DIR (False: given without one)."""
    for k, a in enumerate(argv):
        if a == "--":
            break
        if a == "--site":
            if k + 1 >= len(argv):
                return argv[:k], False
            return argv[:k] + argv[k + 2 :], argv[k + 1]
        if a.startswith("--site="):
            return argv[:k] + argv[k + 1 :], a.split("=", 1)[1] or False
    return argv, None


def site_findings(argv: list[str], text: str, site) -> list:
    """JS65x of the jobspec ``text`` (JSON or YAML) `jobspec new ARGV` built, each
    message led by the option that causes it."""
    from jobspec_lsp.jobspec.document import parse  # deferred: only with a site profile
    from jobspec_lsp.jobspec.tree import to_python  # deferred: only with a site profile
    from jobspec_lsp.rules import site as site_rules  # deferred: only with a site profile

    doc = parse(text, "json" if text.lstrip().startswith("{") else "yaml")
    starts = [sum(len(w) + 1 for w in argv[:k]) for k in range(len(argv))]
    out = []
    for d in site_rules.command_line_diagnostics(argv, to_python(doc.root), site):
        k = max((i for i, s in enumerate(starts) if s <= d.start), default=0)
        word = argv[k] if argv else ""
        if k and not word.startswith("-") and argv[k - 1].startswith("-"):
            word = f"{argv[k - 1]} {word}"
        lead = f"{word}: " if d.end - d.start < sum(len(w) + 1 for w in argv) - 1 else ""
        out.append(type(d)(d.code, d.severity, lead + d.message, d.start, d.end, d.data))
    return out


def _emit_new(conv) -> int:
    for message in dict.fromkeys(ch.message for ch in conv.changes):  # each once
        print(f"jobspec new: note: {message}", file=sys.stderr)
    if not conv.ok:
        for d in conv.blockers:
            print(f"jobspec new: {d.severity.label}[{d.code}] {d.message}")
        return 1
    sys.stdout.write(conv.text or "")
    return 0


def _from_batch(argv: list[str]) -> int:
    """`jobspec new --from-batch SCRIPT [--format json|yaml] [FLUX-BATCH-OPTIONS...]`: the
    jobspec `flux batch --dry-run [OPTIONS] SCRIPT` prints, apart from the environment
    and resource limits it copies from the submitter."""

    first = argv[0]
    rest = argv[1:]
    if first.startswith("--from-batch="):
        path = first.partition("=")[2]
    elif rest:
        path, rest = rest[0], rest[1:]
    else:
        print("jobspec new: error: --from-batch needs a script", file=sys.stderr)
        return 2
    own: dict[str, str] = {"--format": "yaml"}  # `jobspec new`'s own options, beside flux batch's
    extra = []
    i = 0
    while i < len(rest):
        a = rest[i]
        name = a.partition("=")[0]
        if name in ("--format", "--flux-version"):
            if "=" in a:
                own[name] = a.partition("=")[2]
            elif i + 1 < len(rest):
                own[name] = rest[i + 1]
                i += 1
            else:
                return _usage(f"{name} needs a value")
            i += 1
            continue
        extra.append(a)
        i += 1
    fmt, version = own["--format"], own.get("--flux-version")
    if fmt not in ("yaml", "json"):
        return _usage(f"--format {fmt!r}: yaml or json")
    from jobspec_lsp.config import load  # deferred: the project configuration
    from jobspec_lsp.fluxcli import model  # deferred: each command imports what it needs (start-up)

    version = version or load(Path(path).parent if path != "-" else Path.cwd()).flux_version
    why = model.version_problem(version) if version else None
    if why:
        return _usage(f"--flux-version: {why}")
    with model.using(version):
        return _from_batch_read(path, fmt, extra)


def _from_batch_read(path: str, fmt: str, extra: list[str]) -> int:
    from jobspec_lsp import convert  # deferred: the converters, only where one runs
    from jobspec_lsp.script import batch  # deferred: each command imports what it needs (start-up)

    try:
        _, text = read_text(None if path == "-" else Path(path))
    except CannotRead as exc:
        return _usage(f"cannot read {path}: {exc}")
    lines = LineIndex(text)
    for d in batch.check_script(text):
        pos = lines.position(d.start)
        print(
            f"{path}:{pos.line + 1}:{pos.character + 1}: {d.severity.label}[{d.code}] {d.message}",
            file=sys.stderr,
        )
    try:
        js = batch.jobspec(text, path, os.getcwd(), extra)
    except batch.BatchError as err:
        if err.ours:
            print(f"jobspec new: error: cannot build the jobspec of {path}: {err}", file=sys.stderr)
        else:
            print(f"jobspec new: error: flux batch would refuse {path}: {err}", file=sys.stderr)
        return 1
    try:
        sys.stdout.write(convert.dump(js, fmt))
    except convert.UsageError as err:
        print(f"jobspec new: error: cannot write the jobspec of {path}: {err}", file=sys.stderr)
        return 1
    return 0
