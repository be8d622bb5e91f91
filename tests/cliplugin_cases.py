"""Site CLI plugins (flux.cli.plugin.CLIPlugin), shared by tests/test_site_cliplugins.py
and the real-Flux tier: each case is the files of a profile's cli/plugins directory."""

from __future__ import annotations

from pathlib import Path

# Plugins Flux loads: what --help shows under "Options provided by plugins" is what
# cliplugins.read_plugins reads.
GOOD: dict[str, dict[str, str]] = {
    "forms": {
        "forms.py": '''
import argparse
from flux.cli.plugin import CLIPlugin


class Forms(CLIPlugin):
    """Options of every form."""

    def __init__(self, prog):
        super().__init__(prog)
        self.add_option("--tag", metavar="TAG", help="a tag")
        self.add_option("--fast", action="store_true", help="go fast")
        self.add_option("--slow", action="store_false", help="not fast")
        self.add_option("--level", type=int, default=3, help="level (default %(default)s)")
        self.add_option("--color", choices=["red", "blue"], help="a color")
        self.add_option("--note", action="append", help="a note (more than once)")
        self.add_option("--dump", nargs="?", const="all", metavar="WHAT", help="dump")
        self.add_option("--verbosity", action="count", default=0, help="more")
        self.add_option("--secret", help=argparse.SUPPRESS)
        self.add_option("--mode", dest="the_mode", help="a mode")
        self.add_option("--turbo", action=argparse.BooleanOptionalAction, help="turbo")
        self.add_option(name="--by-name", help="named by keyword")

    def modify_jobspec(self, args, jobspec):
        if args.tag:
            jobspec.setattr("user.tag", args.tag)
''',
    },
    "prefixes": {
        "prefixes.py": """
from flux.cli import plugin
from flux.cli.plugin import CLIPlugin as Base


class Site(Base):
    def __init__(self, prog, prefix="site"):
        super().__init__(prog, prefix=prefix)
        self.add_option("--gpumode", metavar="MODE", help="gpu mode")


class Bare(plugin.CLIPlugin):
    def __init__(self, prog):
        super().__init__(prog, "")
        self.add_option("--bare-opt", help="no prefix")


class Later(Base):
    def __init__(self, prog):
        Base.__init__(self, prog)
        self.prefix = "lab"
        self.add_option("--queue-hint", help="set after __init__")
""",
    },
    "per-command": {
        "percommand.py": """
from flux.cli.plugin import CLIPlugin

COMMON = [("--account", "the account"), ("--project", "the project")]


class PerCommand(CLIPlugin):
    BATCHY = ("batch", "alloc")

    def __init__(self, prog):
        super().__init__(prog, prefix="pc")
        for name, words in COMMON:
            self.add_option(name, help=words)
        if self.prog in self.BATCHY:
            self.add_option("--instance-mode", help="for batch and alloc")
        elif self.prog == "run":
            self.add_option("--attach-mode", help="for run")
        if prog == "flux submit":
            self.add_option("--submit-only", action="store_true", help="for submit")
        if not self.prog.startswith("bulk"):
            self.add_option("--not-bulk", action="store_true", help="all but bulksubmit")
""",
    },
    "inheritance": {
        "inherit.py": """
from flux.cli.plugin import CLIPlugin


class _Base(CLIPlugin):
    def __init__(self, prog):
        super().__init__(prog, prefix="inh")
        self._common()

    def _common(self):
        self.add_option("--shared", help="from the base")


class Child(_Base):
    def __init__(self, prog):
        super().__init__(prog)
        self.add_option("--own", type=int, help="the child's")


class NotAPlugin:
    def add_option(self, name, **kwargs):
        pass

    def __init__(self):
        self.add_option("--never", help="not a plugin")
""",
    },
    "conflict": {
        "a.py": """
from flux.cli.plugin import CLIPlugin


class Alpha(CLIPlugin):
    def __init__(self, prog):
        super().__init__(prog)
        self.add_option("--shared", help="from Alpha")
        self.add_option("--alpha", help="Alpha's own")


class Beta(CLIPlugin):
    def __init__(self, prog):
        super().__init__(prog)
        self.add_option("--beta", help="Beta's own, left out with it")
        self.add_option("--shared", help="from Beta")
""",
        "validate_only.py": """
from flux.cli.plugin import CLIPlugin


class Checker(CLIPlugin):
    def validate(self, jobspec):
        pass
""",
    },
}

# Plugins Flux fails on: (files, the commands that fail)
EVERY = ("run", "submit", "batch", "alloc", "bulksubmit")
BROKEN: dict[str, tuple[dict[str, str], tuple[str, ...]]] = {
    "syntax": (
        {
            "ok.py": "from flux.cli.plugin import CLIPlugin\n\n\nclass Ok(CLIPlugin):\n"
            "    def __init__(self, prog):\n        super().__init__(prog)\n"
            '        self.add_option("--fine", help="fine")\n',
            "bad.py": "from flux.cli.plugin import CLIPlugin\n\n\nclass Bad(CLIPlugin):\n"
            "    def __init__(self, prog):\n        super().__init__(prog)\n"
            '        self.add_option("--oops" help="no comma")\n',
        },
        EVERY,
    ),
    "short": (
        {
            "short.py": "from flux.cli.plugin import CLIPlugin\n\n\nclass Short(CLIPlugin):\n"
            "    def __init__(self, prog):\n        super().__init__(prog)\n"
            '        self.add_option("-q", help="short")\n',
        },
        EVERY,
    ),
    "taken": (
        {
            "taken.py": "from flux.cli.plugin import CLIPlugin\n\n\nclass Taken(CLIPlugin):\n"
            "    def __init__(self, prog):\n        super().__init__(prog, prefix=None)\n"
            '        self.add_option("--queue", help="the queue again")\n',
        },
        EVERY,
    ),
    "argparse": (
        {
            "kw.py": "from flux.cli.plugin import CLIPlugin\n\n\nclass Kw(CLIPlugin):\n"
            "    def __init__(self, prog):\n        super().__init__(prog)\n"
            '        self.add_option("--flag", action="store_true", metavar="X")\n',
        },
        EVERY,
    ),
    "batch-raises": (
        {
            "raises.py": "from flux.cli.plugin import CLIPlugin\n\n\nclass Raises(CLIPlugin):\n"
            "    def __init__(self, prog):\n        super().__init__(prog)\n"
            '        if self.prog == "batch":\n'
            '            raise ValueError("not for batch")\n'
            '        self.add_option("--fine", help="fine")\n',
        },
        ("batch",),
    ),
}


def write(root: Path, files: dict[str, str]) -> Path:
    """A profile directory holding ``files`` in cli/plugins; returns the profile."""
    plugins = root / "cli" / "plugins"
    plugins.mkdir(parents=True)
    for name, text in files.items():
        (plugins / name).write_text(text.lstrip("\n"))
    return root
