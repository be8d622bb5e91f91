"""A Flux site's command-line plugins, as a site profile holds them: what they add to
flux run, submit, batch, alloc and bulksubmit, read without running them.

flux-core 0.88 (``flux/cli/plugin.py``) loads the ``*.py`` files of
``$FLUX_CLI_PLUGINPATH``, ``{confdir}/cli/plugins`` and ``{libexecdir}/cli/plugins`` (and
its own shape plugin, last), makes each ``CLIPlugin`` class of them a plugin (see
:mod:`.pluginread` for how one file is read), and adds the plugins' options to each
command's parser, under "Options provided by plugins" in --help. A plugin with an option
of the dest of an earlier plugin's is left out of that command (Flux says nothing); a
file Python cannot import, an option name without ``--``, or a name the command already
has, makes the command fail whatever its command line. ``validate`` hooks are not the
command's: job-ingest calls them (with the broker's plugin path) on every job.

A profile keeps the site's plugins in ``cli/plugins/*.py`` under its directory, as
``{confdir}`` has them (a system instance's conf.d is ``{confdir}/system/conf.d``).
:func:`model_options` turns what they add into the option table's
:class:`~jobspec_lsp.fluxcli.model.Option` for
:func:`jobspec_lsp.fluxcli.model.extra_options`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from jobspec_lsp.fluxcli import model
from jobspec_lsp.fluxcli.model import Option
from jobspec_lsp.site import pluginread
from jobspec_lsp.site.pluginread import Found, Plugin, PluginOption, Problem

__all__ = [
    "Plugin", "PluginError", "PluginOption", "Plugins", "Problem", "model_options",
    "read_plugins", "scan",
]  # fmt: skip

PLUGIN_DIR = Path("cli") / "plugins"  # under the profile, as under Flux's confdir


class PluginError(ValueError):
    """A plugin file Flux fails on: the file, the line (where one is known) and why."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.path = problem.path
        self.line = problem.line
        self.message = problem.message


@dataclass(frozen=True)
class Plugins:
    """A profile's plugins, the options they add, and what is wrong with them."""

    plugins: tuple[Plugin, ...] = ()
    options: tuple[PluginOption, ...] = ()
    problems: tuple[Problem, ...] = ()


def read_plugins(directory: Path | str) -> tuple[PluginOption, ...]:
    """The options the CLI plugins in ``directory/cli/plugins/*.py`` add, in the order
    Flux adds them; :class:`PluginError` for the first file or option Flux fails on (all
    of them, and what was only warned about: :func:`scan`)."""
    found = scan(directory)
    for p in found.problems:
        if p.severity == "error":
            raise PluginError(p)
    return found.options


def scan(directory: Path | str) -> Plugins:
    """The plugins of ``directory/cli/plugins/*.py``, their options and every problem;
    never raises for what a file holds. Files are read in name order (Flux takes them in
    the order the directory lists them)."""
    root = Path(directory) / PLUGIN_DIR
    if not root.is_dir():
        return Plugins()
    problems: list[Problem] = []
    plugins: Found = []
    for path in sorted(root.glob("*.py")):
        if not path.name.startswith("."):  # as glob.glob, which Flux uses
            plugins.extend(pluginread.read_file(path, problems))
    options = _registry(plugins, problems)
    return Plugins(tuple(p for p, _ in plugins), options, tuple(problems))


def model_options(options: Iterable[PluginOption]) -> dict[str, tuple[Option, ...]]:
    """The options for :func:`jobspec_lsp.fluxcli.model.extra_options`: for each command,
    the plugin options it has, as the option table holds an option. The value of a
    ``type=int`` option is not marked integer: the checks read an integer option as a
    count (0 or more), and a plugin's may be negative."""
    out: dict[str, list[Option]] = {}
    for o in options:
        opt = Option(
            o.name[2:],
            None,
            o.metavar if o.takes_value else None,
            _doc(o),
            repeat=o.repeat,
            optional_value=o.optional_value,
            aliases=tuple(a[2:] for a in o.aliases),
            hidden=o.hidden,
            dest=o.dest,
            action=o.action,
            choices=tuple(str(c) for c in o.choices) if o.choices is not None else None,
        )
        for c in o.commands:
            out.setdefault(c, []).append(opt)
    return {c: tuple(opts) for c, opts in out.items()}


def _doc(o: PluginOption) -> str:
    words = (o.help or "").strip()
    where = f"the site's CLI plugin {o.plugin}, {Path(o.path).name}"
    return f"{words} ({where})" if words else f"an option of {where}"


# --------------------------------------------------------------------------- registry
def _registry(plugins: Found, problems: list[Problem]) -> tuple[PluginOption, ...]:
    """As Flux's CLIPluginRegistry, command by command: a plugin with an option of an
    earlier plugin's dest is left out; a name the command already has fails it. One
    PluginOption for each option (the commands that have it gathered)."""
    commands: dict[PluginOption, list[str]] = {}
    kept: dict[tuple[int, str], list[PluginOption]] = {}  # (plugin, command) -> options
    said: dict[tuple[str, int, str, str], list[str]] = {}  # (path, line, severity, why)
    for cmd in model.COMMANDS:
        names = set(model.command(cmd).by_long)
        dests: dict[str, Plugin] = {}
        for k, (plugin, per) in enumerate(plugins):
            added = per.get(cmd, [])
            clash = next((o for o in added if o.dest in dests), None)
            if clash is not None:
                why = (
                    f"Flux leaves out the plugin {plugin.name} (\x00): its option {clash.name} "
                    f"has the dest {clash.dest!r} of an option of {dests[clash.dest].name}, "
                    "loaded before it"
                )
                said.setdefault((plugin.path, clash.line, "warning", why), []).append(cmd)
                continue
            for o in added:
                dests[o.dest] = plugin
                taken = next((n for n in (o.name, *o.aliases) if n[2:] in names), None)
                if taken is not None:
                    why = (
                        f"{taken}: Flux fails with it (\x00): the command has an option of "
                        "this name (argparse: conflicting option string)"
                    )
                    said.setdefault((plugin.path, o.line, "error", why), []).append(cmd)
                    continue
                names.update(n[2:] for n in (o.name, *o.aliases))
                commands.setdefault(o, []).append(cmd)
                kept.setdefault((k, cmd), []).append(o)
    for (path, line, severity, why), cmds in said.items():
        problems.append(
            Problem(path, line, why.replace("\x00", pluginread.commands(cmds)), severity)
        )
    order: list[PluginOption] = []
    for k in range(len(plugins)):  # each command's options in its own order
        mine: list[PluginOption] = []
        for cmd in model.COMMANDS:
            at = 0
            for o in kept.get((k, cmd), []):
                if o in mine:
                    at = mine.index(o) + 1
                else:
                    mine.insert(at, o)
                    at += 1
        order.extend(mine)
    return tuple(PluginOption(**{**o.__dict__, "commands": tuple(commands[o])}) for o in order)


def for_site(site) -> tuple[dict[str, tuple[Option, ...]], tuple[Problem, ...]]:
    """The options a site profile's plugins add (for :func:`.model.extra_options`) and
    what is wrong with them; read once per loaded profile (a reloaded one is read again)."""
    got = site.cache.get("cli-plugins")
    if got is None:
        found = scan(site.directory)
        got = (model_options(found.options), found.problems)
        site.cache["cli-plugins"] = got
    return got
