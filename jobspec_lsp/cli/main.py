"""`jobspec` command line: adapts the pure core to a terminal and exit codes.

Exit codes (like ruff): 0 no error-severity diagnostic, 1 at least one, 2 a
usage error or a file that could not be read (the others are still checked).
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import sys
from pathlib import Path

from jobspec_lsp import __version__, kinds
from jobspec_lsp.cli import convert as convert_cli
from jobspec_lsp.cli import schema as schema_cli
from jobspec_lsp.diagnostics import (
    RULES,
    VERSION_RULES,
    Severity,
    is_code_or_prefix,
    read_codes,
    unknown_code,
)
from jobspec_lsp.rules.targets import DEFAULT as DEFAULT_TARGET
from jobspec_lsp.rules.targets import TARGETS
from jobspec_lsp.text.sources import (
    CannotRead,
    discover,
    language_of,
    read_bytes,
    read_text,
    text_problem,
    write_in_place,
)


class UsageError(Exception):
    pass


# --------------------------------------------------------------------------- output
def _severity_name(sev: Severity) -> str:
    return sev.label


def shown_path(path: str) -> str:
    """A path for one output line: control characters written as escapes, so a file
    name cannot start a line of its own (or a fake diagnostic)."""
    if path.isprintable():
        return path
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in path)


def emit_text(out, path, doc, diags):
    path = shown_path(path)
    for d in diags:
        s = doc.lines.position(d.start)
        out.write(
            f"{path}:{s.line + 1}:{s.character + 1}: {_severity_name(d.severity)}[{d.code}] "
            f"{d.message}\n"
        )


def _github_data(s: str) -> str:
    """A workflow command's message, escaped as GitHub reads it back."""
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(s: str) -> str:
    """A workflow command's property value (a file name can hold anything)."""
    return _github_data(s).replace(":", "%3A").replace(",", "%2C")


def emit_github(out, path, doc, diags):
    level = {Severity.ERROR: "error", Severity.WARNING: "warning"}
    path = _github_property(path)
    for d in diags:
        s, e = doc.lines.position(d.start), doc.lines.position(d.end)
        msg = _github_data(d.message)
        out.write(
            f"::{level.get(d.severity, 'notice')} file={path},line={s.line + 1},"
            f"col={s.character + 1},endLine={e.line + 1},endColumn={e.character + 1},"
            f"title={d.code}::{d.code} {msg}\n"
        )


def json_file_entry(path, doc, diags) -> dict:
    return {
        "path": path,
        "diagnostics": [
            {
                "code": d.code,
                "severity": _severity_name(d.severity),
                "message": d.message,
                # LSP's positions as a server sends them: 0-based, UTF-16 code units
                "range": doc.lines.range(d.start, d.end, encoding="utf-16").to_json(),
            }
            for d in diags
        ],
    }


# --------------------------------------------------------------------------- commands
_warned: set[str] = set()


def _project(path):
    """The project configuration for a file (its folder's for stdin); its problems
    printed once each. Returns (config, whether it has problems)."""
    from jobspec_lsp.config import (  # deferred: the project configuration, only where it is read
        load,  # deferred: the project configuration, only where it is read
    )

    cfg = load(path if path is not None else Path.cwd())
    for p in cfg.problems:
        line = f"{shown_path(str(p))}"
        if line not in _warned:
            _warned.add(line)
            print(f"jobspec: error: {line}", file=sys.stderr)
    return cfg


def _diagnose(text: str, data: bytes | None, path, language: str, args, cfg, select, ignore):
    """(document, diagnostics) of one file, as the configuration and the flags say."""

    name = str(path) if path is not None else getattr(args, "stdin_filename", None)
    kind = kinds.detect(name, text, explicit=True)
    options = kinds.Options(
        select=tuple(select) if select else None,
        ignore=tuple(ignore or ()),
        target=args.target or cfg.target or DEFAULT_TARGET,
        version_rules=args.version_rules or cfg.version_rules or "auto",
        flux_version=args.flux_version or cfg.flux_version,
        site=load_site(args.site or cfg.site),
    )
    shown = "-" if path is None else shown_path(str(path))
    if not kind.offers("directives") and f"note {shown}" not in _warned:
        _warned.add(f"note {shown}")  # once per file, however many --fix rounds
        print(f"jobspec: note: {shown}: {kind.summary}", file=sys.stderr)
    elif kind.offers("migrate") and f"note {shown}" not in _warned:
        _warned.add(f"note {shown}")
        print(
            f"jobspec: note: {shown}: {kind.summary}; `jobspec convert {shown}` writes it as a "
            "Flux batch script (--diff to see the changes)",
            file=sys.stderr,
        )
    doc = kind.read_bytes(data) if data is not None else kind.read(text)
    return doc, kind.check(doc, options)


def _not_a_script(text: str, data: bytes, path, args) -> str | None:
    """Why a script (a file that is no jobspec) cannot be read as one: not UTF-8, binary."""
    why = text_problem(data)
    if why is None:
        return None
    name = str(path) if path is not None else getattr(args, "stdin_filename", None)
    return None if kinds.detect(name, text, explicit=True).offers("format") else why


def _rediagnose(text: str, *, path, language, args, cfg, select, ignore):
    return _diagnose(text, None, path, language, args, cfg, select, ignore)


def _flux_versions() -> list[str]:
    from jobspec_lsp.fluxcli import model  # deferred: each command imports what it needs (start-up)

    return sorted(model.versions(), key=model._version_key)


def _flux_version(text: str) -> str:
    """argparse type of --flux-version: a version in the option table."""
    import argparse  # deferred: each command imports what it needs (start-up)

    from jobspec_lsp.fluxcli import model  # deferred: each command imports what it needs (start-up)

    why = model.version_problem(text)
    if why:
        raise argparse.ArgumentTypeError(why)
    return text


def cmd_check(args) -> int:
    cli_select = _codes(args.select, "--select")
    cli_ignore = _codes(args.ignore, "--ignore") or []
    status = 0
    counts = {s: 0 for s in Severity}
    files_json = []
    sarif_results: list[dict] = []
    checked = 0
    fixed_total = 0
    fail_on_warning = bool(args.exit_non_zero_on_warning)
    out = sys.stdout
    for shown, path, error in _started_after_one(discover(args.paths)):
        if error is None:
            try:
                data = read_bytes(path)
            except CannotRead as exc:
                error = str(exc)
        if error is not None:
            print(f"jobspec: error: cannot read {shown}: {error}", file=sys.stderr)
            status = 2
            if args.format == "json":
                files_json.append({"path": shown, "error": error, "diagnostics": []})
            continue
        if path is None:
            name = args.stdin_filename or "-"
            language = language_of(args.stdin_filename, data)
            shown = name
            where = Path(args.stdin_filename) if args.stdin_filename else None
        else:
            language = language_of(str(path), data)
            where = path
        cfg = _project(where)
        if cfg.problems:
            status = 2
        fail_on_warning = fail_on_warning or cfg.exit_non_zero_on_warning
        select = cli_select or (list(cfg.select) if cfg.select else None)
        ignore = list(cfg.ignored_for(where)) + cli_ignore or None
        text = data.decode("utf-8", "replace")
        why = _not_a_script(text, data, path, args)
        if why is not None:  # what `convert` says of it too (a jobspec's bytes are JS9xx)
            print(f"jobspec: error: cannot read {shown}: {why}", file=sys.stderr)
            status = 2
            continue
        checked += 1
        doc, diags = _diagnose(text, data, path, language, args, cfg, select, ignore)
        if (args.fix or args.unsafe_fixes) and not any(p.code == "JS911" for p in diags):
            from jobspec_lsp.features.fixes import (  # deferred: only with --fix
                apply_fixes,  # deferred: only with --fix
            )

            analyse = functools.partial(
                _rediagnose,
                path=path,
                language=language,
                args=args,
                cfg=cfg,
                select=select,
                ignore=ignore,
            )
            new, applied = apply_fixes(analyse, text, unsafe=bool(args.unsafe_fixes))
            if applied:
                if path is None:
                    sys.stdout.write(new)  # stdin: the fixed text goes to stdout
                else:
                    try:
                        write_in_place(Path(os.path.realpath(path)), new)
                    except OSError as exc:
                        print(
                            f"jobspec: error: cannot write {shown}: {exc.strerror or exc}",
                            file=sys.stderr,
                        )
                        status = 2
                        continue
                fixed_total += len(applied)  # counted once they are on disk
                if not args.quiet:
                    for code, title in applied:
                        print(f"{shown_path(shown)}: fixed {code}: {title}", file=sys.stderr)
                doc, diags = _diagnose(new, None, path, language, args, cfg, select, ignore)
            elif path is None:
                sys.stdout.write(text)
        for d in diags:
            counts[d.severity] += 1
        if any(d.severity == Severity.ERROR for d in diags):
            status = max(status, 1)
        if fail_on_warning and any(d.severity == Severity.WARNING for d in diags):
            status = max(status, 1)
        if (args.fix or args.unsafe_fixes) and path is None:
            emit_text(sys.stderr, shown, doc, diags)  # stdout holds the fixed text
        elif args.format == "json":
            files_json.append(json_file_entry(shown, doc, diags))
        elif args.format == "sarif":
            sarif_results.extend(_sarif_results(shown, doc, diags))
        elif args.format == "github":
            emit_github(out, shown, doc, diags)
        else:
            emit_text(out, shown, doc, diags)
    if args.format == "json":
        json.dump({"files": files_json}, out, ensure_ascii=False)
        out.write("\n")
    elif args.format == "sarif":
        json.dump(_sarif(sarif_results), out, ensure_ascii=False, indent=2)
        out.write("\n")
    elif args.format == "text" and not args.quiet:
        total = sum(counts.values())
        fixed = f" ({fixed_total} fixed)" if fixed_total else ""
        if total:
            parts = [
                f"{n} {s.label}{'s' if n != 1 and s != Severity.INFORMATION else ''}"
                for s, n in counts.items()
                if n
            ]
            print(
                "Found " + ", ".join(parts) + f" remaining{fixed}."
                if fixed
                else "Found " + ", ".join(parts) + ".",
                file=sys.stderr,
            )
        elif status == 0 and checked:
            print(f"All checks passed{fixed}.", file=sys.stderr)
    if _broken_sites:
        status = 2
    if not checked and status == 0:
        print(
            "jobspec: warning: no jobspec files found (directories are searched for "
            "*.jobspec.yaml|yml|json and jobspec.yaml|yml|json)",
            file=sys.stderr,
        )
    return status


SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _sarif_results(path: str, doc, diags) -> list[dict]:
    level = {Severity.ERROR: "error", Severity.WARNING: "warning"}
    out = []
    for d in diags:
        # columns in UTF-16 code units, SARIF's default, said in the run's columnKind
        r = doc.lines.range(d.start, d.end, encoding="utf-16")
        s, e = r.start, r.end
        out.append(
            {
                "ruleId": d.code,
                "level": level.get(d.severity, "note"),
                "message": {"text": d.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": Path(path).as_posix()},
                            "region": {
                                "startLine": s.line + 1,
                                "startColumn": s.character + 1,
                                "endLine": e.line + 1,
                                "endColumn": e.character + 1,
                            },
                        }
                    }
                ],
            }
        )
    return out


def _sarif(results: list[dict]) -> dict:
    """A SARIF 2.1.0 log: one run, every rule described, the results."""
    from jobspec_lsp.jobspec.docs_text import (  # deferred: each command imports what it needs (start-up)
        rule_url,  # deferred: each command imports what it needs (start-up)
    )

    level = {Severity.ERROR: "error", Severity.WARNING: "warning"}
    rules = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": r.why},
            "helpUri": rule_url(r.code),
            "defaultConfiguration": {"level": level.get(r.severity, "note")},
        }
        for r in (RULES[c] for c in sorted(RULES))
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jobspec-lsp",
                        "version": __version__,
                        "informationUri": "https://github.com/flux-framework/jobspec-lsp",
                        "rules": rules,
                    }
                },
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }


def _codes(values, option: str):
    """--select/--ignore (each may be given again, each a comma-separated list): the
    codes, or a usage error naming every code that is no rule's."""
    if not values:
        return None
    got = read_codes(values)
    if got.unknown:
        raise UsageError("\njobspec: error: ".join(f"{option}: {p}" for p in got.problems()))
    return list(got.codes) or None


def cmd_rules(args) -> int:
    if args.code:
        code = args.code.strip().upper()
        rule = RULES.get(code)
        if rule is None and is_code_or_prefix(code):  # a family: its rules, as the list
            for c in sorted(c for c in RULES if c.startswith(code)):
                _rule_line(RULES[c])
            return 0
        if rule is None:
            raise UsageError(unknown_code(args.code))
        from jobspec_lsp.rules.rulesdoc import (  # deferred: each command imports what it needs (start-up)
            SAFETY_WORDS,  # deferred: each command imports what it needs (start-up)
        )

        print(f"{rule.code} {rule.name} ({rule.severity.label})\n\n{rule.summary}\n\n{rule.why}\n")
        print(f"Applies to: {', '.join(rule.kinds)}")
        if rule.fix:
            print(f"Fix: {SAFETY_WORDS[rule.safety]}")
        print()
        print("Bad:\n" + _indent(rule.bad) + "\nFixed:\n" + _indent(rule.good))
        return 0
    for code in sorted(RULES):
        _rule_line(RULES[code])
    return 0


def _rule_line(rule) -> None:
    print(f"{rule.code}  {rule.severity.label:<11}  {rule.name:<32}  {rule.summary}")


def cmd_shape(args) -> int:
    from jobspec_lsp.jobspec.tree import to_python  # deferred: each command imports what it needs
    from jobspec_lsp.notations import shape as shapes  # deferred: shape loads lark

    if args.from_file is not None:
        if args.shape is not None:
            raise UsageError("give a SHAPE or --from FILE, not both")
        path = args.from_file
        try:
            data, text = read_text(None if path == "-" else Path(path))
        except CannotRead as exc:
            print(f"jobspec: error: cannot read {path}: {exc}", file=sys.stderr)
            return 2
        from jobspec_lsp.jobspec.document import parse  # deferred: libyaml, only where YAML is read

        doc = parse(text, language_of(path if path != "-" else None, data))
        if doc.root is None:
            first = doc.problems[0]
            pos = doc.lines.position(first.start)
            print(
                f"jobspec: error: {path}:{pos.line + 1}:{pos.character + 1}: {first.message}",
                file=sys.stderr,
            )
            return 2
        value = to_python(doc.root)
        resources = value.get("resources") if isinstance(value, dict) else None
        try:
            print(shapes.collapse(resources, label=args.label))
        except shapes.ShapeError as err:
            print(f"jobspec: error: {path}: {err.message}", file=sys.stderr)
            return 1
        return 0
    if args.shape is None:
        raise UsageError("give a SHAPE (e.g. slot=4/node/core=2) or --from FILE")
    try:
        resources = shapes.expand(args.shape, label=args.label)
    except shapes.ShapeError as err:
        caret = " " * err.start + "^" * max(1, err.end - err.start)
        shown = args.shape
        if len(shown) > 200:  # the part around the error, not a kilobyte of shape
            lo = max(0, err.start - 60)
            shown, caret = shown[lo : err.start + 80], caret[lo:]
        print(f"jobspec: error: {err.message}\n  {shown}\n  {caret}", file=sys.stderr)
        return 1  # a shape it refuses, as check's exit 1 (2 is for usage errors)
    if args.format == "json":
        print(json.dumps(resources, indent=2))
    else:
        import yaml  # deferred: PyYAML, only where YAML is read or written

        sys.stdout.write(yaml.safe_dump(resources, sort_keys=False, default_flow_style=False))
    return 0


def cmd_fmt(args) -> int:
    """`jobspec fmt`: exit 0 nothing to do or done, 1 --check/--diff found files to
    reformat, 2 an error (a file unreadable, unparsable or refused; the others are
    still formatted)."""
    import difflib  # deferred: each command imports what it needs (start-up)

    from jobspec_lsp.fmt.format import (  # deferred: the formatter, only when a document is written
        FormatError,
        format_result,
        load_options,
    )
    from jobspec_lsp.text.positions import (  # deferred: each command imports what it needs (start-up)
        LineIndex,  # deferred: each command imports what it needs (start-up)
    )

    status = 0
    changed = unchanged = unwritten = 0
    seen = 0
    warned: set[str] = set()
    for shown, path, error in _started_after_one(discover(args.paths)):
        if error is None:
            try:
                data, text = read_text(path)
            except CannotRead as exc:
                error = str(exc)
        if error is not None:
            print(f"jobspec: error: cannot read {shown}: {error}", file=sys.stderr)
            status = 2
            continue
        name = args.stdin_filename if path is None else str(path)
        if kinds.detect(name, text, explicit=True).is_script:
            # fmt formats jobspec only: a script's text is the shell's (or Slurm's), and
            # rewriting it as YAML would change what it does
            if path is not None and shown == str(path) and shown in args.paths:
                print(f"jobspec: {shown}: a script, not a jobspec: left as it is", file=sys.stderr)
            if path is None and not (args.check or args.diff):
                sys.stdout.write(text)
            continue
        seen += 1
        if path is None:
            shown = args.stdin_filename or "-"
            language = language_of(args.stdin_filename, data)
            options = load_options(Path(args.stdin_filename) if args.stdin_filename else Path.cwd())
        else:
            language = language_of(str(path), data)
            options = load_options(path)
        for w in options.warnings:
            if w not in warned:
                warned.add(w)
                print(f"jobspec: warning: {w}", file=sys.stderr)
        try:
            result = format_result(text, language, options)
            new = result.text
            if result.why:  # a fallback layout: formatted, but say why (it is a bug to report)
                print(
                    f"{shown}: note: formatted with the {result.layout!r} layout ({result.why}); "
                    "please report this file",
                    file=sys.stderr,
                )
        except FormatError as err:
            bom = 1 if text.startswith("\ufeff") else 0
            pos = LineIndex(text[bom:]).position(max(err.start - bom, 0))
            print(
                f"{shown}:{pos.line + 1}:{pos.character + 1}: error: {err.message}", file=sys.stderr
            )
            status = 2
            if path is None and not (args.check or args.diff):
                sys.stdout.write(text)  # a pipe gets its input back unchanged
            continue
        if path is None and not (args.check or args.diff):
            sys.stdout.write(new)
            continue
        if new == text:
            unchanged += 1
            continue
        if args.diff or args.check:
            changed += 1  # would be: nothing is written
        if args.diff:
            sys.stdout.writelines(
                difflib.unified_diff(
                    text.splitlines(keepends=True),
                    new.splitlines(keepends=True),
                    fromfile=shown,
                    tofile=shown,
                )
            )
            status = max(status, 1)
        elif args.check:
            print(f"would reformat {shown}")
            status = max(status, 1)
        else:
            assert path is not None  # stdin without --check/--diff went to stdout above
            try:  # through a symbolic link: replace the file it points to, not the link
                write_in_place(Path(os.path.realpath(path)), new)
            except OSError as exc:
                print(
                    f"jobspec: error: cannot write {shown}: {exc.strerror or exc}", file=sys.stderr
                )
                status = 2
                unwritten += 1
                continue
            changed += 1  # counted once it is on disk
            if not args.quiet:
                print(f"reformatted {shown}", file=sys.stderr)
    if not args.quiet and (changed or unchanged or unwritten):
        verb = "would be reformatted" if (args.check or args.diff) else "reformatted"
        print(
            f"{changed} file{'s' if changed != 1 else ''} {verb}, {unchanged} "
            f"{'already formatted' if (args.check or args.diff) else 'left unchanged'}"
            + (f", {unwritten} could not be written" if unwritten else ""),
            file=sys.stderr,
        )
    if not seen and status == 0:
        print(
            "jobspec: warning: no jobspec files found (directories are searched for "
            "*.jobspec.yaml|yml|json and jobspec.yaml|yml|json)",
            file=sys.stderr,
        )
    return status


def _indent(text):
    return "".join("    " + line + "\n" for line in text.splitlines())


def _stdin_and_quiet(p: argparse.ArgumentParser, stdin_help: str, quiet_help: str) -> None:
    """The two options every command that reads files has: a name for '-', and -q."""
    p.add_argument("--stdin-filename", metavar="NAME", help=stdin_help)
    p.add_argument("-q", "--quiet", action="store_true", help=quiet_help)


def _columns() -> int:
    """The terminal's width as argparse measures it (COLUMNS, else the terminal of
    standard output, else 80), without importing shutil for it."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _Help(argparse.HelpFormatter):
    """argparse's help, its width measured without shutil: argparse makes a formatter
    for every option it is given (to check the option's metavar), and the first one
    imports shutil and what it needs (2 ms of every start-up)."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        super().__init__(prog, indent_increment, max_help_position, width or _columns() - 2)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kw) -> None:
        kw.setdefault("formatter_class", _Help)
        super().__init__(*args, **kw)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="jobspec", description="Flux jobspec tools: check, explain rules.")
    p.add_argument("--version", action="version", version=f"jobspec {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    c = sub.add_parser(
        "check",
        help="diagnose jobspec files against RFC 14/25/31",
        description="Check jobspec files. Directories are searched for "
        "*.jobspec.yaml|yml|json and jobspec.yaml; files given "
        "explicitly are always checked; '-' reads stdin.",
    )
    c.add_argument("paths", nargs="+", metavar="PATH")
    c.add_argument("--format", choices=("text", "json", "github", "sarif"), default="text")
    c.add_argument(
        "--fix",
        action="store_true",
        help="apply every safe fix, then report what is left ('-': the fixed text on stdout)",
    )
    c.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix (or alone): also the fixes that guess (a did-you-mean, a removed key)",
    )
    c.add_argument(
        "--exit-non-zero-on-warning",
        action="store_true",
        help="exit 1 on warnings too (also exit-non-zero-on-warning in the configuration)",
    )
    c.add_argument(
        "--select",
        action="append",
        metavar="CODES",
        help="only these codes or prefixes (comma separated, e.g. JS2,JS301)",
    )
    c.add_argument(
        "--ignore", action="append", metavar="CODES", help="skip these codes or prefixes"
    )
    c.add_argument(
        "--version-rules",
        choices=VERSION_RULES,
        default=None,
        help="auto: V1 rules when version is 1 (default: the configuration's, else auto)",
    )
    c.add_argument(
        "--target",
        choices=TARGETS,
        default=None,
        help="what an error means: rfc (the RFC text, the default), flux-core "
        "(flux-core's job-ingest as shipped), flux-core-any (ingest with "
        "--require-version=any), fluxion (fluxion's jobspec reader); "
        "default: [tool.jobspec] target in pyproject.toml, else rfc",
    )
    c.add_argument(
        "--flux-version",
        type=_flux_version,
        default=None,
        metavar="VERSION",
        help="read #flux: directives and flux command lines with this Flux's options "
        f"({', '.join(_flux_versions())}; default: [tool.jobspec] flux-version, else the "
        "newest)",
    )
    c.add_argument(
        "--site",
        metavar="DIR",
        default=None,
        help="also check that each job can run on this site: its Flux configuration and "
        "resources (a site profile, docs/site.md; default: site in the configuration)",
    )
    _stdin_and_quiet(c, "name to report for '-' (its suffix picks YAML or JSON)", "no summary line")
    c.set_defaults(func=cmd_check)

    f = sub.add_parser(
        "fmt",
        help="format jobspec files (comments and meaning kept)",
        description="Format jobspec files in place (directories: the files "
        "`jobspec check` finds; '-' formats stdin to stdout). Exit 0: "
        "nothing to do or done; 1: --check/--diff found files to "
        "reformat; 2: error. Options: [tool.jobspec.format] in "
        "pyproject.toml (sort-keys, line-length).",
    )
    f.add_argument("paths", nargs="+", metavar="PATH")
    f.add_argument("--check", action="store_true", help="only list files that would change")
    f.add_argument("--diff", action="store_true", help="print a unified diff instead of writing")
    _stdin_and_quiet(
        f,
        "name for '-' (its suffix picks YAML or JSON; its folder the pyproject.toml)",
        "no summary or progress lines",
    )
    f.set_defaults(func=cmd_fmt)

    convert_cli.register(sub)  # one implementation of `jobspec convert` and `jobspec new`
    schema_cli.register(sub)  # one implementation of `jobspec schema`

    r = sub.add_parser("rules", help="list rule codes, explain one, or list a family (JS57)")
    r.add_argument("code", nargs="?", metavar="CODE")
    r.set_defaults(func=cmd_rules)

    sh = sub.add_parser(
        "shape",
        help="expand an RFC 46 shape to resources, or collapse a jobspec's",
        description="Print the resources list a shape string stands for, or with "
        "--from the shortest shape of a jobspec's resources.",
    )
    sh.add_argument("shape", nargs="?", metavar="SHAPE")
    sh.add_argument(
        "--from", dest="from_file", metavar="FILE", help="a jobspec file ('-' for stdin)"
    )
    sh.add_argument("--format", choices=("yaml", "json"), default="yaml")
    sh.add_argument(
        "--label",
        default="default",
        help="label of the one unlabelled slot (default: default; flux-core uses task)",
    )
    sh.set_defaults(func=cmd_shape)

    si = sub.add_parser(
        "site",
        help="a site profile: the site's Flux conf.d and its resources (show DIR)",
        description="A site profile is a directory in the form of a Flux system instance's "
        "conf.d (TOML) with the R file its [resource] path names (relative to the directory). "
        "`show` summarises it: node types, queues and their limits. `import` captures one "
        "from the running instance FLUX_URI names (flux config get, flux resource R). "
        "`plugin` prints the path of the job-ingest validator plugin (docs/site.md).",
    )
    si.add_argument("action", choices=("show", "import", "plugin"))
    si.add_argument("directory", metavar="DIR", nargs="?")
    si.add_argument("--force", action="store_true", help="import: overwrite the profile's files")
    si.add_argument("--flux", default="flux", help="import: the flux command (default: flux)")
    si.set_defaults(func=cmd_site)

    s = sub.add_parser(
        "lsp",
        help="run the language server (stdio; --tcp/--ws, see jobspec lsp -h)",
        add_help=False,
    )
    s.add_argument("server_args", nargs=argparse.REMAINDER)
    s.set_defaults(func=lambda a: lsp_main(a.server_args))
    return p


def cmd_site(args) -> int:
    from jobspec_lsp.site import profile  # deferred: each command imports what it needs

    if args.action == "plugin":
        from jobspec_lsp.site import ingest  # deferred: each command imports what it needs

        print(ingest.__file__)
        return 0
    if not args.directory:
        print(f"jobspec site {args.action}: error: which directory (DIR)?", file=sys.stderr)
        return 2
    if args.action == "import":
        from jobspec_lsp.site import importer  # deferred: each command imports what it needs

        try:
            written = importer.capture(args.directory, flux=args.flux, force=args.force)
        except importer.CaptureError as err:
            print(f"jobspec site import: error: {err}", file=sys.stderr)
            return 2  # as every command's usage and configuration errors
        for path in written:
            print(f"wrote {path}", file=sys.stderr)
    try:
        site = profile.load(args.directory)
    except profile.ProfileError as err:
        print(f"jobspec site {args.action}: error: {err}", file=sys.stderr)
        return 2  # a broken profile is a configuration error, as in `check --site`
    sys.stdout.write(profile.summary(site))
    from jobspec_lsp.site import cliplugins  # deferred: each command imports what it needs

    found = cliplugins.scan(site.directory)
    for o in found.options:
        value = f"={o.metavar}" if o.takes_value else ""
        print(f"plugin option {o.name}{value} ({', '.join(o.commands)}): {o.help or o.plugin}")
    for p in found.problems:
        print(f"note: {p}")
    return 0


_sites: dict[str, object] = {}
_broken_sites: set[str] = set()  # profiles that could not be loaded: `check` exits 2


def load_site(directory: str | None):
    """The site profile in ``directory`` (None: none), loaded once per run. A broken one
    is said once, with its file and line, and is None: every check that does not need
    the site goes on, and ``check`` exits 2."""
    if not directory:
        return None
    if directory in _broken_sites:
        return None
    if directory not in _sites:
        from jobspec_lsp.site import profile  # deferred: only with a site profile

        try:
            _sites[directory] = profile.load(directory)
        except profile.ProfileError as err:
            print(
                f"jobspec: error: site profile: {err} (checked without the site)",
                file=sys.stderr,
            )
            _broken_sites.add(directory)
            return None
        from jobspec_lsp.site import cliplugins  # deferred: only with a site profile

        for p in cliplugins.for_site(_sites[directory])[1]:
            print(f"jobspec: warning: site profile: {p}", file=sys.stderr)
    return _sites[directory]


_START_UP_THRESHOLD = 20_000  # allocations between young collections while starting


def run() -> int:
    """The `jobspec` program (its console script): :func:`main`, its start-up with the
    collector's young collections made rare. Importing allocates tens of thousands of
    objects that live as long as the process, and the collections they set off find no
    garbage in them (about 2 ms of a small check's 33); :func:`_started` gives the
    collector its usual pace once the first file is checked. At exit everything is
    frozen: the interpreter's last collection has nothing to scan (4 ms more)."""
    gc.set_threshold(_START_UP_THRESHOLD, *gc.get_threshold()[1:])
    try:
        return main()
    finally:
        gc.freeze()


_USUAL = gc.get_threshold()


def _started() -> None:
    """Start-up is over (the first file is checked: what it imported is imported): what
    start-up made is left out of the collector's scans (its garbage collected first),
    and the collector runs at its usual pace."""
    if gc.get_threshold()[0] == _START_UP_THRESHOLD:
        gc.collect(1)
        gc.freeze()
        gc.set_threshold(*_USUAL)


def _started_after_one(files):
    """``files``, with :func:`_started` called once the first has been dealt with."""
    for n, item in enumerate(files):
        if n == 1:
            _started()
        yield item


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    # these two pass their options through untouched (argparse would eat them)
    if argv[:1] == ["lsp"]:
        _started()  # a server runs for hours: its collector is on
        return lsp_main(argv[1:], prog="jobspec lsp")
    if argv[:1] == ["new"]:
        from jobspec_lsp.fluxcli import submit  # deferred: flux submit's reading, only for new

        try:  # its own options (--from-batch, -h) wherever they stand before the command
            return convert_cli.new_main(submit.own_options_first(argv[1:]))
        except BrokenPipeError:  # `jobspec new -h | head`
            return 1
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # said by the command's own parser, with its usage (not the top level's)
            _command_parser(parser, argv).error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # argparse already printed the usage message
        return 2 if exc.code else 0
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"jobspec: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `jobspec check . | head`
        return 1
    except KeyboardInterrupt:
        return 130


def _command_parser(parser, argv: list[str]):
    """The parser of the command ``argv`` names (the top level's when it names none)."""
    import argparse  # deferred: each command imports what it needs (start-up)

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word in argv:
                if word in action.choices:
                    return action.choices[word]
    return parser


def lsp_main(argv=None, prog: str = "jobspec-lsp") -> int:
    """`jobspec-lsp` / `jobspec lsp`: the language server (its own argument parser)."""
    from jobspec_lsp.lsp.main import (  # deferred: the server, only for `jobspec lsp`
        main as server_main,  # deferred: the server, only for `jobspec lsp`
    )

    return server_main(argv, prog)


__all__ = ["main", "lsp_main", "run"]
