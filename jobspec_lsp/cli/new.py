"""`jobspec new`: the jobspec `flux submit` would build for a command line, its options
read by flux submit's own rules (argparse would take the command's options after its
first word), or with --from-batch the one `flux batch --dry-run` prints for a script.

Exit 0 written, 1 the options make a jobspec that does not check clean (or a script
flux batch would refuse), 2 a usage error. Against a site profile, the site's findings
are blockers too (cli/newsite.py, loaded only with a site)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from jobspec_lsp import config, convert
from jobspec_lsp.boundary import load
from jobspec_lsp.cli.arguments import NEW_DESCRIPTION, NEW_EPILOG
from jobspec_lsp.fluxcli import model, submit
from jobspec_lsp.script import batch
from jobspec_lsp.text.positions import LineIndex
from jobspec_lsp.text.sources import CannotRead, read_text

# --site DIR (or site in the configuration): the profile, its plugins' options and the
# site's rules, only with a site (tomllib and the dataclass machinery)
WITH_SITE = "jobspec_lsp.cli.newsite:SiteCheck"


def run(argv: list[str]) -> int:
    """`jobspec new ARGS`: its own options (--from-batch, -h) read wherever they stand
    before the command."""
    try:
        return _new(submit.own_options_first(argv))
    except BrokenPipeError:  # `jobspec new -h | head`
        return 1


def _new(argv: list[str]) -> int:
    if argv[:1] == ["--from-batch"] or any(a.startswith("--from-batch=") for a in argv[:1]):
        return _from_batch(argv)
    if argv[:1] in (["-h"], ["--help"]):
        print(submit.help_text(NEW_DESCRIPTION, NEW_EPILOG))
        return 0
    argv, site_dir = _site_option(argv)
    cfg = config.load(Path.cwd())
    if site_dir is False or site_dir is True:
        print("jobspec new: error: --site needs a directory", file=sys.stderr)
        return 2
    site = load(WITH_SITE)(site_dir or cfg.site) if site_dir or cfg.site else None
    try:
        with model.using(cfg.flux_version), model.extra_options(site.extra if site else None):
            conv = convert.from_command_line(argv)
            if conv.ok and site is not None:
                site.check(argv, conv)
    except convert.UsageError as err:
        print(f"jobspec new: error: {err}", file=sys.stderr)
        return 2
    if conv.blockers:
        conv.text = None
    code = _emit(conv)
    broken = site is not None and site.site is None  # said; the jobspec is without it
    return 2 if broken and code == 0 else code


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


def _emit(conv) -> int:
    for message in dict.fromkeys(ch.message for ch in conv.changes):  # each once
        print(f"jobspec new: note: {message}", file=sys.stderr)
    if not conv.ok:
        for d in conv.blockers:
            print(f"jobspec new: {d.severity.label}[{d.code}] {d.message}")
        return 1
    sys.stdout.write(conv.text or "")
    return 0


def _usage(message: str) -> int:
    print(f"jobspec: error: {message}", file=sys.stderr)
    return 2


# --------------------------------------------------------------------------- --from-batch
def _from_batch(argv: list[str]) -> int:
    """`jobspec new --from-batch SCRIPT [--format json|yaml] [FLUX-BATCH-OPTIONS...]`: the
    jobspec `flux batch --dry-run [OPTIONS] SCRIPT` prints, apart from the environment
    and resource limits it copies from the submitter."""
    first, rest = argv[0], argv[1:]
    if first.startswith("--from-batch="):
        path = first.partition("=")[2]
    elif rest:
        path, rest = rest[0], rest[1:]
    else:
        print("jobspec new: error: --from-batch needs a script", file=sys.stderr)
        return 2
    own, extra = _own_options(rest)
    if isinstance(own, str):
        return _usage(own)
    fmt, version = own["--format"], own.get("--flux-version")
    if fmt not in ("yaml", "json"):
        return _usage(f"--format {fmt!r}: yaml or json")
    version = version or config.load(Path(path).parent if path != "-" else Path.cwd()).flux_version
    why = model.version_problem(version) if version else None
    if why:
        return _usage(f"--flux-version: {why}")
    with model.using(version):
        return _from_batch_read(path, fmt, extra)


def _own_options(rest: list[str]) -> tuple[dict[str, str] | str, list[str]]:
    """`jobspec new`'s own options (--format, --flux-version) among flux batch's, and flux
    batch's; or why not (an option of ours without its value) instead of ours."""
    own: dict[str, str] = {"--format": "yaml"}
    extra: list[str] = []
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
                return f"{name} needs a value", extra
            i += 1
            continue
        extra.append(a)
        i += 1
    return own, extra


def _from_batch_read(path: str, fmt: str, extra: list[str]) -> int:
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
