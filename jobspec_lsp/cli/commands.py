"""The declared table of `jobspec`'s subcommands: each one's name, the module that runs
it and the function declaring its arguments (cli/arguments.py).

The module entry (``"jobspec_lsp.cli.check:run"``) is loaded through
:func:`jobspec_lsp.boundary.load` only when that subcommand runs, so `jobspec check` of a
script loads neither the formatter, nor the converters, nor the language server; each
command's module imports what it needs at its top. ``run`` is given the parsed arguments,
or, for a command that reads its own options (``own_options``: argparse would take them),
the words after the command's name. The table's order is `jobspec --help`'s."""

from __future__ import annotations

import jobspec_lsp.cli.arguments as arguments
from jobspec_lsp.boundary import load
from jobspec_lsp.record import Frozen

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable


class Command(Frozen):
    """A subcommand: its name, the entry that runs it, the function declaring its
    arguments, and whether it reads its own options."""

    __slots__ = ("name", "entry", "arguments", "own_options")
    name: str
    entry: str  # "jobspec_lsp.cli.check:run"
    arguments: Callable[[argparse._SubParsersAction], argparse.ArgumentParser]
    own_options: bool

    def __init__(
        self,
        name: str,
        entry: str,
        arguments: Callable[[argparse._SubParsersAction], argparse.ArgumentParser],
        own_options: bool = False,
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "entry", entry)
        object.__setattr__(self, "arguments", arguments)
        object.__setattr__(self, "own_options", own_options)

    def run(self, args) -> int:
        """The command run on ``args``: its module loaded, now, the first time."""
        return load(self.entry)(args)


COMMANDS = (
    Command("check", "jobspec_lsp.cli.check:run", arguments.check),
    Command("fmt", "jobspec_lsp.cli.fmt:run", arguments.fmt),
    Command("convert", "jobspec_lsp.cli.convert:run", arguments.convert),
    Command("new", "jobspec_lsp.cli.new:run", arguments.new, own_options=True),
    Command("schema", "jobspec_lsp.cli.schema:run", arguments.schema),
    Command("rules", "jobspec_lsp.cli.rules:run", arguments.rules),
    Command("shape", "jobspec_lsp.cli.shape:run", arguments.shape),
    Command("site", "jobspec_lsp.cli.site:run", arguments.site),
    Command("lsp", "jobspec_lsp.cli.lsp:run", arguments.lsp, own_options=True),
    Command("mcp", "jobspec_lsp.cli.mcp:run", arguments.mcp),
)
BY_NAME = {c.name: c for c in COMMANDS}

# the `jobspec-lsp` program: the language server alone (`jobspec lsp` is the command above)
LANGUAGE_SERVER = "jobspec_lsp.lsp.main:main"
