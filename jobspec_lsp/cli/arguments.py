"""Each subcommand's arguments, declared for argparse: one function a command, given the
`jobspec` parser's subparsers, adds that command's parser (its help line, description
and options) and returns it. The command table (cli/commands.py) names these; building
the parser loads none of the modules that run the commands."""

from __future__ import annotations

import argparse

from jobspec_lsp.cli.output import REPORTS
from jobspec_lsp.diagnostics import VERSION_RULES
from jobspec_lsp.fluxcli import model
from jobspec_lsp.rules.targets import TARGETS

NEW_HELP = "the V1 jobspec `flux submit` would build for these options"
NEW_DESCRIPTION = (
    "Write the jobspec `flux submit` would build (V1, slot label `task`, duration 0 when "
    "no -t) for the same options, to keep in a file or pass to `flux job submit` (--format "
    "json). Exit 0 written, 1 the options make a jobspec that does not check clean, 2 usage "
    "error."
)
NEW_EPILOG = "example: jobspec new -N2 -n8 -c2 -t 1h --job-name sim -- ./sim --steps 100"


def check(sub) -> argparse.ArgumentParser:
    c = sub.add_parser(
        "check",
        help="diagnose jobspec files against RFC 14/25/31",
        description="Check jobspec files. Directories are searched for "
        "*.jobspec.yaml|yml|json and jobspec.yaml; files given "
        "explicitly are always checked; '-' reads stdin.",
    )
    c.add_argument("paths", nargs="+", metavar="PATH")
    _check_report(c)
    _check_rules(c)
    _stdin_and_quiet(c, "name to report for '-' (its suffix picks YAML or JSON)", "no summary line")
    return c


def _check_report(c: argparse.ArgumentParser) -> None:
    """What `check` writes and fixes, and what makes it fail."""
    c.add_argument("--format", choices=tuple(REPORTS), default="text")
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


def _check_rules(c: argparse.ArgumentParser) -> None:
    """Which rules `check` runs, and what they read a file against."""
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
    _docs_url(c)


def _docs_url(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--docs-url",
        metavar="URL",
        default=None,
        help="the documentation site rule links point into, for a site that hosts its own "
        "copy (a rule's page is URL/rules/js202/; default: docs-url in the configuration, "
        "else the project's site)",
    )


def _flux_versions() -> list[str]:
    return sorted(model.versions(), key=model._version_key)


def _flux_version(text: str) -> str:
    """argparse type of --flux-version: a version in the option table."""
    why = model.version_problem(text)
    if why:
        raise argparse.ArgumentTypeError(why)
    return text


def fmt(sub) -> argparse.ArgumentParser:
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
    return f


def _stdin_and_quiet(p: argparse.ArgumentParser, stdin_help: str, quiet_help: str) -> None:
    """The two options every command that reads files has: a name for '-', and -q."""
    p.add_argument("--stdin-filename", metavar="NAME", help=stdin_help)
    p.add_argument("-q", "--quiet", action="store_true", help=quiet_help)


def convert(sub) -> argparse.ArgumentParser:
    cv = sub.add_parser(
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
    _convert_output(cv)
    return cv


def _convert_output(cv: argparse.ArgumentParser) -> None:
    """Where and how `convert` writes what it converted."""
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


def new(sub) -> argparse.ArgumentParser:
    """`jobspec new` reads its options itself, as flux submit does (cli/new.py): this
    entry only lists it in `jobspec --help`."""
    return sub.add_parser("new", help=NEW_HELP, description=NEW_DESCRIPTION, epilog=NEW_EPILOG)


def schema(sub) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "schema",
        help="print a corrected JSON Schema of jobspec for other tools (or of the findings)",
        description="Print the JSON Schema of canonical (RFC 14, the default) or V1 (RFC 25) "
        "jobspec, for yaml-language-server, check-jsonschema and other JSON Schema "
        "tools. A schema checks structure only; `jobspec check` does the rest.",
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--canonical", action="store_true", help="RFC 14 canonical jobspec (default)"
    )
    which.add_argument("--v1", action="store_true", help="RFC 25 jobspec V1")
    p.add_argument(
        "what",
        nargs="?",
        choices=("jobspec", "findings"),
        default="jobspec",
        help="jobspec (default), or findings: the schema of `check --format json` and of the "
        "MCP tools' results",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    return p


def rules(sub) -> argparse.ArgumentParser:
    r = sub.add_parser("rules", help="list rule codes, explain one, or list a family (JS57)")
    r.add_argument("code", nargs="?", metavar="CODE")
    _docs_url(r)
    return r


def shape(sub) -> argparse.ArgumentParser:
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
    return sh


def site(sub) -> argparse.ArgumentParser:
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
    return si


def lsp(sub) -> argparse.ArgumentParser:
    """`jobspec lsp` passes its options to the server's own parser: listed here only."""
    s = sub.add_parser(
        "lsp",
        help="run the language server (stdio; --tcp/--ws, see jobspec lsp -h)",
        add_help=False,
    )
    s.add_argument("server_args", nargs=argparse.REMAINDER)
    return s


def mcp(sub) -> argparse.ArgumentParser:
    m = sub.add_parser(
        "mcp",
        help="serve the checks to agents: a Model Context Protocol server over stdio",
        description="Serve check, fix, convert, new, explain and show_jobspec as the tools of "
        "a Model Context Protocol server over stdin and stdout, for an agent's client to "
        "start (needs the mcp extra: pip install 'jobspec-lsp[mcp]'). The settings are the "
        "project configuration of the folder it is started in, under these options, under "
        "each call's own arguments. See docs/agents.md.",
    )
    m.add_argument("--target", choices=TARGETS, help="the target of every check (default: rfc)")
    m.add_argument("--site", metavar="DIR", help="check every job against this site profile")
    return m
