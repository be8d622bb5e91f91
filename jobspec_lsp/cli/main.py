"""The `jobspec` program: :func:`run` (its console script and ``python -m jobspec_lsp``)
and :func:`main`, which reads the command line with a parser built from the command
table (cli/commands.py) and runs the command it names, loading that command's module
only then.

Exit codes (like ruff): 0 no error-severity diagnostic, 1 at least one, 2 a
usage error or a file that could not be read (the others are still checked).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys

from jobspec_lsp import __version__
from jobspec_lsp.boundary import load
from jobspec_lsp.cli.commands import BY_NAME, COMMANDS, LANGUAGE_SERVER
from jobspec_lsp.cli.output import UsageError
from jobspec_lsp.cli.startup import START_UP_THRESHOLD


def run() -> int:
    """The `jobspec` program (its console script): :func:`main`, its start-up with the
    collector's young collections made rare. Importing allocates tens of thousands of
    objects that live as long as the process, and the collections they set off find no
    garbage in them (about 2 ms of a small check's 33); :func:`.startup.started` gives the
    collector its usual pace once the first file is checked. At exit everything is
    frozen: the interpreter's last collection has nothing to scan (4 ms more)."""
    gc.set_threshold(START_UP_THRESHOLD, *gc.get_threshold()[1:])
    try:
        return main()
    finally:
        gc.freeze()


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = BY_NAME.get(argv[0]) if argv else None
    if command is not None and command.own_options:  # argparse would eat its options
        return command.run(argv[1:])
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


def lsp_main(argv=None, prog: str = "jobspec-lsp") -> int:
    """`jobspec-lsp`: the language server (its own argument parser)."""
    return load(LANGUAGE_SERVER)(argv, prog)


# --------------------------------------------------------------------------- the parser
def build_parser() -> argparse.ArgumentParser:
    """The `jobspec` parser: each command of the table, its arguments as it declares
    them; ``func`` runs it (its module loaded then)."""
    p = _Parser(prog="jobspec", description="Flux jobspec tools: check, explain rules.")
    p.add_argument("--version", action="version", version=f"jobspec {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for command in COMMANDS:
        declared = command.arguments(sub)
        if not command.own_options:  # those are run before parsing (main)
            declared.set_defaults(func=command.run)
    return p


def _command_parser(parser, argv: list[str]):
    """The parser of the command ``argv`` names (the top level's when it names none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word in argv:
                if word in action.choices:
                    return action.choices[word]
    return parser


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


__all__ = ["main", "lsp_main", "run"]
