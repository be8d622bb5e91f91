"""A Flux site's command-line plugins, read without running them.

flux-core 0.88 (``flux/cli/plugin.py``) imports every ``*.py`` file of
``$FLUX_CLI_PLUGINPATH``, ``{confdir}/cli/plugins`` and ``{libexecdir}/cli/plugins`` into
flux run, submit, batch, alloc and bulksubmit, and makes an instance of each class of the
module derived from ``flux.cli.plugin.CLIPlugin`` (in name order; not a name starting with
``_``), with ``prog`` ``"flux run"`` etc. (``self.prog`` is then ``"run"``). What the
plugin's ``__init__`` registers with ``self.add_option("--NAME", **kwargs)`` is added to
the command's parser as ``--PREFIX-NAME`` — the prefix ``ex`` unless the plugin passes
another to ``CLIPlugin.__init__``, none when that is empty — with argparse's
``add_argument(**kwargs)`` and, without ``dest=``, the prefixed name as its dest. An
option is for one command only when the plugin adds it only for that ``self.prog``. A
plugin with an option of the dest of an earlier plugin's is left out of that command
(Flux says nothing); a file Python cannot import, an option name without ``--``, or a
name the command already has, makes the command fail, whatever its command line.

A profile keeps the site's plugins in ``cli/plugins/*.py`` under its directory (where a
system instance's ``{confdir}`` has them). They are read here with :mod:`ast`, never
imported: the ``__init__`` of each plugin class is followed once per command with the
literal values it uses (its arguments, ``self.prog``, ``self.prefix``, constants of the
module and class, ``if`` and ``for`` over them, ``super().__init__``, calls of its own
methods), and each option's keyword arguments are handed to a throwaway ``argparse``
parser, so they are taken or refused as Flux's parser takes them. What cannot be read
that way is a warning; a condition that cannot be read counts as both true and false
(the option is kept: an option is never hidden by a guess).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from jobspec_lsp.fluxcli import model
from jobspec_lsp.fluxcli.model import Option

PLUGIN_DIR = Path("cli") / "plugins"  # under the profile, as under Flux's confdir
BASE = "flux.cli.plugin.CLIPlugin"
DEFAULT_PREFIX = "ex"  # CLIPlugin.__init__(self, prog, prefix="ex", version=None)
HOOKS = ("preinit", "modify_jobspec", "validate")  # what a plugin may do besides options
_STEPS = 200_000  # statements and expressions followed in one file, at most
_DEPTH = 32  # nested method calls followed, at most
_LONGEST = 100_000  # characters of a string built while reading, at most


@dataclass(frozen=True)
class Problem:
    """What is wrong with a plugin file, or what could not be read in it. ``severity``
    "error": Flux fails with it (every command, or the ones the message names);
    "warning": Flux takes it but leaves something out, or it was not read statically."""

    path: str
    line: int | None
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        return (
            f"{self.path}:{self.line}: {self.message}"
            if self.line
            else (f"{self.path}: {self.message}")
        )


class PluginError(ValueError):
    """A plugin file Flux fails on: the file, the line (where one is known) and why."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.path = problem.path
        self.line = problem.line
        self.message = problem.message


@dataclass(frozen=True)
class PluginOption:
    """One option a plugin adds, as the commands' parsers take it."""

    name: str  # on the command line, with the plugin's prefix: "--ex-foo"
    plugin: str  # the class
    path: str
    line: int  # of the add_option call
    commands: tuple[str, ...]  # which of model.COMMANDS have it
    takes_value: bool
    metavar: str | None  # as --help shows it (None for a flag)
    dest: str
    action: str  # argparse's name for it: store, store_true, append, count, ...
    optional_value: bool = False  # nargs "?" or "*"
    repeat: bool = False  # append, extend, append_const, count
    integer: bool = False  # type=int
    type: str | None = None  # the name of type=, when one is given
    choices: tuple[Any, ...] | None = None
    default: Any = None
    required: bool = False
    help: str | None = None  # as --help shows it (%(default)s filled in)
    hidden: bool = False  # help=argparse.SUPPRESS
    aliases: tuple[str, ...] = ()  # more names: --no-ex-foo of BooleanOptionalAction


@dataclass(frozen=True)
class Plugin:
    """One plugin class Flux loads from the profile."""

    name: str
    path: str
    line: int
    hooks: tuple[str, ...]  # which of HOOKS it defines (validate: job-ingest calls it)


@dataclass(frozen=True)
class Plugins:
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
    plugins: list[tuple[Plugin, dict[str, list[PluginOption]]]] = []
    for path in sorted(root.glob("*.py")):
        if not path.name.startswith("."):  # as glob.glob, which Flux uses
            plugins.extend(_read_file(path, problems))
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
        )
        for c in o.commands:
            out.setdefault(c, []).append(opt)
    return {c: tuple(opts) for c, opts in out.items()}


def _doc(o: PluginOption) -> str:
    words = (o.help or "").strip()
    where = f"the site's CLI plugin {o.plugin}, {Path(o.path).name}"
    return f"{words} ({where})" if words else f"an option of {where}"


# --------------------------------------------------------------------------- registry
def _registry(
    plugins: list[tuple[Plugin, dict[str, list[PluginOption]]]], problems: list[Problem]
) -> tuple[PluginOption, ...]:
    """As Flux's CLIPluginRegistry, command by command: a plugin with an option of an
    earlier plugin's dest is left out; a name the command already has fails it. One
    PluginOption for each option (the commands that have it gathered)."""
    commands: dict[PluginOption, list[str]] = {}
    kept: dict[tuple[int, str], list[PluginOption]] = {}  # (plugin, command) -> options
    said: dict[tuple[str, int, str], list[str]] = {}  # (path, line, message) -> commands
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
                said.setdefault((plugin.path, clash.line, "warning:" + why), []).append(cmd)
                continue
            for o in added:
                dests[o.dest] = plugin
                taken = next((n for n in (o.name, *o.aliases) if n[2:] in names), None)
                if taken is not None:
                    why = (
                        f"{taken}: Flux fails with it (\x00): the command has an option of "
                        "this name (argparse: conflicting option string)"
                    )
                    said.setdefault((plugin.path, o.line, "error:" + why), []).append(cmd)
                    continue
                names.update(n[2:] for n in (o.name, *o.aliases))
                commands.setdefault(o, []).append(cmd)
                kept.setdefault((k, cmd), []).append(o)
    for (path, line, what), cmds in said.items():
        severity, _, why = what.partition(":")
        problems.append(Problem(path, line, why.replace("\x00", _commands(cmds)), severity))
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


def _commands(cmds: list[str]) -> str:
    return "flux " + ", ".join(cmds) if len(cmds) < len(model.COMMANDS) else "every command"


# --------------------------------------------------------------------------- a file
def _read_file(
    path: Path, problems: list[Problem]
) -> list[tuple[Plugin, dict[str, list[PluginOption]]]]:
    shown = str(path)
    try:
        source = path.read_bytes()
    except OSError as err:
        problems.append(
            Problem(
                shown,
                None,
                f"Flux cannot read it, and fails (every command): {err.strerror or err}",
            )
        )
        return []
    try:
        tree = ast.parse(source, filename=shown)
    except SyntaxError as err:
        problems.append(
            Problem(
                shown,
                err.lineno,
                f"Python cannot import it, and Flux fails (every command): {err.msg}",
            )
        )
        return []
    except (ValueError, RecursionError, MemoryError) as err:  # NUL bytes, deep nesting
        problems.append(
            Problem(shown, None, f"Python cannot import it, and Flux fails (every command): {err}")
        )
        return []
    module = _Module(tree, shown, problems)
    try:
        return module.plugins()
    except RecursionError:
        module.command = ""
        module.warn(None, "too deeply nested to read: its plugins are left out")
        return []
    finally:
        module.flush()


class _Unknown:
    """A value not known without running the code."""

    def __repr__(self) -> str:
        return "<unknown>"


UNKNOWN: Any = _Unknown()


@dataclass(frozen=True)
class _Ref:
    """A name from outside the file: ``argparse.SUPPRESS``, ``int``, ..."""

    dotted: str


class _Stop(Exception):
    """The statements after this one are not run (return, raise, too many steps)."""


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


_BUILTIN_TYPES: dict[str, Callable[[str], Any]] = {
    "builtins.int": int,
    "builtins.float": float,
    "builtins.str": str,
}
_STR_METHODS = frozenset(
    {
        "startswith", "endswith", "lower", "upper", "strip", "lstrip", "rstrip",
        "replace", "removeprefix", "removesuffix", "split", "join", "title", "capitalize",
    }
)  # fmt: skip
_BUILTINS = frozenset({"int", "float", "str", "bool", "len", "tuple", "list", "sorted"})


@dataclass
class _Self:
    """The plugin instance while its __init__ is followed for one command."""

    order: list[str]  # its MRO: local class names, then "<CLIPlugin>" or "<?NAME>" for the rest
    command: str
    attrs: dict[str, Any] = field(default_factory=dict)
    added: list[PluginOption] = field(default_factory=list)


class _Module:
    def __init__(self, tree: ast.Module, path: str, problems: list[Problem]):
        self.tree = tree
        self.path = path
        self.problems = problems
        self.imports: dict[str, str] = {}  # local name -> what it names, dotted
        self.classes: dict[str, ast.ClassDef] = {}
        self.globals: dict[str, Any] = {}
        self.steps = 0
        # (line, severity, message) -> the commands it is said for (\x00 in the message)
        self.said: dict[tuple[int | None, str, str], list[str]] = {}
        self.command = ""  # the command whose instance is being made
        self.uncertain = 0  # inside an `if` not read, or a `try`: a raise may not end it
        self._mros: dict[str, list[str]] = {}
        for stmt in tree.body:
            self._top(stmt)

    # ---- the module's names
    def _top(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Import):
            for a in stmt.names:
                if a.asname:
                    self.imports[a.asname] = a.name
                else:
                    top = a.name.split(".")[0]
                    self.imports[top] = top
                self.globals.pop(a.asname or a.name.split(".")[0], None)
        elif isinstance(stmt, ast.ImportFrom):
            base = "." * stmt.level + (stmt.module or "")
            for a in stmt.names:
                if a.name != "*":
                    self.imports[a.asname or a.name] = f"{base}.{a.name}"
                    self.globals.pop(a.asname or a.name, None)
        elif isinstance(stmt, ast.ClassDef):
            self.classes[stmt.name] = stmt
            self.imports.pop(stmt.name, None)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            value = self._safe_eval(stmt.value, self.globals)
            for t in targets:
                if isinstance(t, ast.Name):
                    self.globals[t.id] = value
                    self.classes.pop(t.id, None)
        elif isinstance(stmt, (ast.If, ast.Try)):
            for inner in [*stmt.body, *stmt.orelse]:  # the names bound either way
                self._top(inner)

    def _safe_eval(self, node: ast.expr, env: dict[str, Any]) -> Any:
        try:
            return _Eval(self, env, None).expr(node)
        except (_Stop, _Break, _Continue):
            return UNKNOWN

    def dotted(self, node: ast.expr) -> str | None:
        """What ``node`` names from outside the file (``argparse.SUPPRESS``), or None."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        if node.id in self.imports:
            head = self.imports[node.id]
        elif node.id in _BUILTINS and node.id not in self.globals and node.id not in self.classes:
            head = f"builtins.{node.id}"
        else:
            return None
        return ".".join([head, *reversed(parts)])

    def base_of(self, node: ast.expr) -> str | None:
        """A class's base as its MRO names it: a local class, "<CLIPlugin>", "<?NAME>"
        (from elsewhere), or None (object, or not a class)."""
        if isinstance(node, ast.Name) and node.id in self.classes:
            return node.id
        if isinstance(node, ast.Name) and node.id == "object":
            return None
        name = self.dotted(node)
        return "<CLIPlugin>" if name == BASE else f"<?{name or ast.unparse(node)}>"

    def mro(self, name: str, seen: tuple[str, ...] = ()) -> list[str]:
        """Python's C3 order of a local class (what is not local ends it)."""
        if name in self._mros:
            return self._mros[name]
        if name in seen:
            return [name]
        bases = [b for b in map(self.base_of, self.classes[name].bases) if b is not None]
        seqs = [self.mro(b, (*seen, name)) if b in self.classes else [b] for b in bases]
        seqs.append(list(bases))
        out = [name]
        while any(seqs):
            for seq in seqs:
                head = seq[0] if seq else None
                if head is not None and not any(head in s[1:] for s in seqs):
                    break
            else:
                head = next(s[0] for s in seqs if s)  # inconsistent: Python refuses; go on
            out.append(head)
            seqs = [s[1:] if s and s[0] == head else s for s in seqs]
        self._mros[name] = out
        return out

    def is_plugin(self, name: str) -> bool:
        return "<CLIPlugin>" in self.mro(name)

    # ---- the plugins
    def plugins(self) -> list[tuple[Plugin, dict[str, list[PluginOption]]]]:
        out = []
        for name in sorted(self.classes):  # dir(module): in name order
            cls = self.classes[name]
            if not self.is_plugin(name):
                self._foreign_bases(cls)
                continue
            if name.startswith("_"):
                continue  # Flux skips the module's names starting with _
            hooks = tuple(h for h in HOOKS if self.find(self.mro(name), None, h)[0] == "local")
            plugin = Plugin(name, self.path, cls.lineno, hooks)
            per: dict[str, list[PluginOption]] = {}
            for cmd in model.COMMANDS:
                per[cmd] = self.instantiate(name, cmd)
            out.append((plugin, per))
        return out

    def _foreign_bases(self, cls: ast.ClassDef) -> None:
        """A warning for a class that looks like a plugin (it adds options or has a
        plugin's hooks) derived from a class of another module (not the stdlib)."""
        looks = any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "add_option"
            or isinstance(n, ast.FunctionDef) and n.name in HOOKS
            for n in ast.walk(cls)
        )  # fmt: skip
        if not looks:
            return
        for b in cls.bases:
            name = self.dotted(b)
            if name is None or name.startswith("builtins."):
                continue
            top = name.lstrip(".").split(".")[0]
            if name.startswith(".") or top not in sys.stdlib_module_names:
                self.warn(
                    cls.lineno,
                    f"class {cls.name} derives from {name}, not in this file: if that is a "
                    "CLIPlugin, Flux loads it as a plugin, and its options are not read here",
                )

    def instantiate(self, name: str, cmd: str) -> list[PluginOption]:
        """What ``entry("flux CMD")`` adds: the class's __init__ followed."""
        me = _Self(self.mro(name), cmd)
        self.command = cmd
        try:
            _Eval(self, {}, me).call_method(
                me.order, None, "__init__", [f"flux {cmd}"], {}, self.classes[name]
            )
        except (_Stop, _Break, _Continue):
            pass
        return me.added

    def find(
        self, mro: list[str], after: str | None, method: str
    ) -> tuple[str, ast.FunctionDef | None, str | None]:
        """The method ``method`` as ``mro`` finds it after class ``after``: ("local",
        def, owner), ("base", None, None) for CLIPlugin's own, ("unknown", None, NAME)
        from a class of elsewhere, ("none", None, None)."""
        start = mro.index(after) + 1 if after in mro else 0
        for owner in mro[start:]:
            if owner == "<CLIPlugin>":
                return "base", None, None
            if owner.startswith("<?"):
                return "unknown", None, owner[2:-1]
            found = None
            for stmt in self.classes[owner].body:
                if (
                    isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and stmt.name == method
                ):
                    found = stmt
                elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and any(
                    isinstance(t, ast.Name) and t.id == method
                    for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                ):
                    found = None  # rebound to something else
            if found is not None and isinstance(found, ast.FunctionDef):
                return "local", found, owner
        return "none", None, None

    def class_attr(self, mro: list[str], attr: str) -> Any:
        for owner in mro:
            if owner.startswith("<"):
                break
            value: Any = UNKNOWN
            hit = False
            for stmt in self.classes[owner].body:
                if isinstance(stmt, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == attr for t in stmt.targets
                ):
                    value, hit = self._safe_eval(stmt.value, self.globals), True
                elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    if stmt.target.id == attr and stmt.value is not None:
                        value, hit = self._safe_eval(stmt.value, self.globals), True
            if hit:
                return value
        return UNKNOWN

    def step(self) -> None:
        self.steps += 1
        if self.steps > _STEPS:
            self.warn(
                None, f"stopped reading after {_STEPS:,} steps: options after that are not read"
            )
            raise _Stop

    def warn(self, line: int | None, message: str) -> None:
        self.say(line, message, "warning")

    def say(self, line: int | None, message: str, severity: str = "error") -> None:
        """A problem; ``\x00`` in ``message`` stands for the commands it is found for."""
        cmds = self.said.setdefault((line, severity, message), [])
        if self.command and self.command not in cmds:
            cmds.append(self.command)

    def flush(self) -> None:
        for (line, severity, message), cmds in self.said.items():
            text = message.replace("\x00", _commands(cmds))
            self.problems.append(Problem(self.path, line, text, severity))
        self.said.clear()


class _Eval:
    """One frame: a method of the plugin (or the module's top level, ``me`` None)."""

    def __init__(
        self,
        mod: _Module,
        env: dict[str, Any],
        me: _Self | None,
        owner: str | None = None,
        self_name: str | None = None,
        depth: int = 0,
    ):
        self.mod = mod
        self.env = env
        self.me = me
        self.owner = owner  # the class whose method this is (for super())
        self.self_name = self_name
        self.depth = depth

    # ---- calls of the plugin's methods
    def call_method(
        self,
        mro: list[str],
        after: str | None,
        method: str,
        args: list[Any],
        kwargs: dict[str, Any],
        at: ast.AST,
    ) -> Any:
        """``method`` as found in ``mro`` after class ``after`` (None: from the start),
        called on the plugin with ``args`` and ``kwargs``."""
        me = self.me
        assert me is not None
        kind, fn, owner = self.mod.find(mro, after, method)
        line = getattr(at, "lineno", None)
        if kind == "base":
            return self.base_method(method, args, kwargs, at)
        if kind == "unknown":
            if method in ("__init__", "add_option"):
                self.mod.warn(line, f"{method} of {owner}, not in this file: not read")
            return UNKNOWN
        if kind == "none" or fn is None:
            return UNKNOWN
        if self.depth >= _DEPTH:
            self.mod.warn(line, f"calls nested more than {_DEPTH} deep: not followed")
            return UNKNOWN
        env = self.bind(fn, args, kwargs, top=self.depth == 0 and method == "__init__")
        if env is None:
            return UNKNOWN
        params = [*fn.args.posonlyargs, *fn.args.args]
        frame = _Eval(self.mod, env, me, owner, params[0].arg if params else None, self.depth + 1)
        try:
            frame.block(fn.body)
        except _Stop:
            pass
        return UNKNOWN

    def bind(
        self, fn: ast.FunctionDef, args: list[Any], kwargs: dict[str, Any], top: bool
    ) -> dict[str, Any] | None:
        a = fn.args
        params = [*a.posonlyargs, *a.args][1:]  # after self
        defaults = [self.mod._safe_eval(d, self.mod.globals) for d in a.defaults]
        first_default = len(params) - len(defaults)  # the defaults are of the last ones
        env: dict[str, Any] = {}
        for i, p in enumerate(params):
            if i < len(args):
                env[p.arg] = args[i]
            elif p.arg in kwargs:
                env[p.arg] = kwargs.pop(p.arg)
            elif i >= first_default:
                env[p.arg] = defaults[i - first_default]
            else:
                self._bad_call(fn, f"{fn.name}() needs an argument {p.arg!r}", top)
                return None
        if len(args) > len(params):
            if a.vararg is None:
                self._bad_call(fn, f"{fn.name}() takes fewer arguments", top)
                return None
            env[a.vararg.arg] = tuple(args[len(params) :])
        elif a.vararg is not None:
            env[a.vararg.arg] = ()
        for p, d in zip(a.kwonlyargs, a.kw_defaults):
            if p.arg in kwargs:
                env[p.arg] = kwargs.pop(p.arg)
            elif d is not None:
                env[p.arg] = self.mod._safe_eval(d, self.mod.globals)
            else:
                self._bad_call(fn, f"{fn.name}() needs an argument {p.arg!r}", top)
                return None
        if a.kwarg is not None:
            env[a.kwarg.arg] = dict(kwargs)
        elif kwargs and UNKNOWN not in kwargs:
            self._bad_call(fn, f"{fn.name}() takes no argument {next(iter(kwargs))!r}", top)
            return None
        return env

    def _bad_call(self, fn: ast.FunctionDef, why: str, top: bool) -> None:
        if top:
            self.mod.say(
                fn.lineno,
                f"Flux cannot make the plugin, and fails (\x00): {why} (Flux passes only prog)",
            )
        else:
            self.mod.warn(fn.lineno, f"{why}: not followed")

    def base_method(self, method: str, args: list[Any], kwargs: dict[str, Any], at: ast.AST) -> Any:
        me = self.me
        assert me is not None
        line = getattr(at, "lineno", None)
        if method == "__init__":
            names = ["prog", "prefix", "version"]
            given = dict(zip(names, args))
            given.update({k: v for k, v in kwargs.items() if k in names})
            prog = given.get("prog", UNKNOWN)
            if isinstance(prog, str) and prog.startswith("flux "):
                prog = prog[5:]
            me.attrs["prog"] = prog
            unread = UNKNOWN in kwargs or len(args) > 3
            me.attrs["prefix"] = given.get("prefix", UNKNOWN if unread else DEFAULT_PREFIX)
            me.attrs["version"] = given.get("version")
            me.attrs["options"] = UNKNOWN
            return None
        if method == "add_option":
            self.add_option(args, kwargs, line or 0)
        return UNKNOWN

    # ---- add_option
    def add_option(self, args: list[Any], kwargs: dict[str, Any], line: int) -> None:
        me = self.me
        assert me is not None
        mod = self.mod
        if "name" in kwargs and not args:
            args = [kwargs.pop("name")]
        if len(args) != 1:
            mod.say(
                line, "add_option takes one option name (and keyword arguments): Flux fails (\x00)"
            )
            return
        name = args[0]
        if name is UNKNOWN or not isinstance(name, str):
            mod.warn(line, "an option whose name is not read without running the plugin: left out")
            return
        if not name.startswith("--"):
            mod.say(
                line, f"{name}: Flux fails with it (\x00): plugins must register only long options"
            )
            return
        prefix = me.attrs.get("prefix", UNKNOWN)
        if prefix is UNKNOWN or not (prefix is None or isinstance(prefix, str)):
            mod.warn(line, f"{name}: its prefix is not read without running the plugin: left out")
            return
        full = name.replace("--", f"--{prefix}-", 1) if prefix else name
        if UNKNOWN in kwargs:  # **mapping not read
            mod.warn(line, f"{full}: keyword arguments not read statically; read without them")
            del kwargs[UNKNOWN]
        kw: dict[str, Any] = {}
        type_name = None
        for k, v in kwargs.items():
            if k == "type" and v is not None:
                if isinstance(v, _Ref) and v.dotted in _BUILTIN_TYPES:
                    kw[k] = _BUILTIN_TYPES[v.dotted]
                    type_name = v.dotted.split(".")[-1]
                else:
                    kw[k] = _opaque
                    type_name = v.dotted if isinstance(v, _Ref) else "?"
            elif k == "action" and isinstance(v, _Ref):
                if v.dotted == "argparse.BooleanOptionalAction":
                    kw[k] = argparse.BooleanOptionalAction
                else:
                    mod.warn(line, f"{full}: action {v.dotted} is not read here; read as store")
            elif k == "help" and isinstance(v, _Ref) and v.dotted == "argparse.SUPPRESS":
                kw[k] = argparse.SUPPRESS
            elif v is UNKNOWN or isinstance(v, _Ref):
                if k in ("action", "nargs", "dest"):
                    mod.warn(
                        line,
                        f"{full}: {k}= is not read without running the plugin; left as argparse's default",
                    )
            else:
                kw[k] = v
        if "dest" not in kw:
            kw["dest"] = full[2:].replace("-", "_")
        parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
        try:
            action = parser.add_argument(full, **kw)
        except (TypeError, ValueError, argparse.ArgumentError) as err:
            mod.say(line, f"{full}: Flux fails with it (\x00): argparse: {err}")
            return
        kind = _action_name(action)
        takes = action.nargs != 0
        metavar = None
        if takes:
            if action.metavar is not None:
                metavar = (
                    action.metavar if isinstance(action.metavar, str) else " ".join(action.metavar)
                )
            elif action.choices is not None:
                metavar = "{" + ",".join(map(str, action.choices)) + "}"
            else:
                metavar = action.dest.upper()
        if takes and action.nargs not in (None, "?", "*"):
            mod.warn(line, f"{full}: nargs={action.nargs!r} is read as one value")
        if action.required:
            mod.warn(line, f"{full} is required: Flux refuses a command line without it (\x00)")
        hidden = action.help == argparse.SUPPRESS
        me.added.append(
            PluginOption(
                full,
                me.order[0],
                mod.path,
                line,
                (),
                takes,
                metavar,
                action.dest,
                kind,
                optional_value=action.nargs in ("?", "*"),
                repeat=kind in ("append", "extend", "append_const", "count"),
                integer=type_name == "int",
                type=type_name,
                choices=_frozen(tuple(action.choices)) if action.choices is not None else None,
                default=_frozen(action.default),
                required=bool(action.required),
                help=None if hidden else _help(action),
                hidden=hidden,
                aliases=tuple(s for s in action.option_strings if s != full),
            )
        )

    # ---- statements
    def block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.stmt(stmt)

    def stmt(self, s: ast.stmt) -> None:
        self.mod.step()
        if isinstance(s, ast.Expr):
            self.expr(s.value)
        elif isinstance(s, ast.Assign):
            value = self.expr(s.value)
            for t in s.targets:
                self.assign(t, value)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.assign(s.target, self.expr(s.value))
        elif isinstance(s, ast.AugAssign):
            self.expr(s.value)
            self.assign(s.target, UNKNOWN)
        elif isinstance(s, ast.If):
            test = self.expr(s.test)
            if test is UNKNOWN or isinstance(test, _Ref):
                if _adds(s):
                    self.mod.warn(
                        s.lineno,
                        f"`if {_short(s.test)}` is not read without running the plugin: "
                        "the options of both branches are kept",
                    )
                self.maybe(s.body)
                self.maybe(s.orelse)
            else:
                self.block(s.body if _truth(test) else s.orelse)
        elif isinstance(s, ast.For):
            self.loop(s)
        elif isinstance(s, ast.While):
            if _adds(s):
                self.mod.warn(s.lineno, "a while loop is not followed: its options are left out")
        elif isinstance(s, ast.Try) or type(s).__name__ == "TryStar":  # TryStar: 3.11
            s = cast(ast.Try, s)
            self.maybe(s.body)  # what it catches is not known: go on after it either way
            self.block(s.orelse)
            self.block(s.finalbody)
        elif isinstance(s, ast.With):
            for item in s.items:
                self.expr(item.context_expr)
            self.block(s.body)
        elif isinstance(s, ast.Return):
            if s.value is not None:
                self.expr(s.value)
            raise _Stop
        elif isinstance(s, ast.Raise):
            if self.me is not None and not self.mod.uncertain:
                self.mod.say(
                    s.lineno,
                    "raises as Flux makes the plugin: Flux fails (\x00)",
                )
            raise _Stop
        elif isinstance(s, ast.Break):
            raise _Break
        elif isinstance(s, ast.Continue):
            raise _Continue
        elif isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.env[s.name] = UNKNOWN
        elif isinstance(s, (ast.Import, ast.ImportFrom)):
            for a in s.names:
                self.env[(a.asname or a.name).split(".")[0]] = UNKNOWN

    def maybe(self, body: list[ast.stmt]) -> None:
        """``body``, which may or may not run (or be cut short): what follows it is read
        either way."""
        self.mod.uncertain += 1
        try:
            self.block(body)
        except (_Stop, _Break, _Continue):
            pass
        finally:
            self.mod.uncertain -= 1

    def loop(self, s: ast.For) -> None:
        items = self.expr(s.iter)
        if isinstance(items, dict):
            items = tuple(items)
        if not isinstance(items, (tuple, str)) or len(items) > 10_000:
            if _adds(s):
                self.mod.warn(
                    s.lineno,
                    f"`for` over {_short(s.iter)} is not read without running the plugin: its options are left out",
                )
            return
        for item in items:
            self.assign(s.target, item)
            try:
                self.block(s.body)
            except _Break:
                return
            except _Continue:
                continue
        self.block(s.orelse)

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = value
        elif isinstance(target, ast.Attribute):
            if self.me is not None and self._is_self(target.value):
                self.me.attrs[target.attr] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            parts = value if isinstance(value, tuple) and len(value) == len(target.elts) else None
            for k, t in enumerate(target.elts):
                self.assign(t, parts[k] if parts is not None else UNKNOWN)

    def _is_self(self, node: ast.expr) -> bool:
        return (
            isinstance(node, ast.Name)
            and node.id == self.self_name
            and self.self_name not in self.env
        )

    # ---- expressions
    def expr(self, node: ast.expr) -> Any:
        self.mod.step()
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return self.env[node.id]
            if node.id in self.mod.globals:
                return self.mod.globals[node.id]
            ref = self.mod.dotted(node)
            return _Ref(ref) if ref else UNKNOWN
        if isinstance(node, ast.Attribute):
            if self.me is not None and self._is_self(node.value):
                if node.attr in self.me.attrs:
                    return self.me.attrs[node.attr]
                return self.mod.class_attr(self.me.order, node.attr)
            ref = self.mod.dotted(node)
            if ref == "argparse.SUPPRESS":
                return argparse.SUPPRESS
            return _Ref(ref) if ref else UNKNOWN
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            elts: list[Any] = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    more = self.expr(e.value)
                    if not isinstance(more, tuple):
                        return UNKNOWN
                    elts.extend(more)
                else:
                    elts.append(self.expr(e))
            if any(e is UNKNOWN for e in elts):
                return UNKNOWN
            return tuple(elts)  # a list read as a tuple: nothing here changes it
        if isinstance(node, ast.Dict):
            out: dict[Any, Any] = {}
            for k, v in zip(node.keys, node.values):
                value = self.expr(v)
                if k is None:
                    if not isinstance(value, dict):
                        return UNKNOWN
                    out.update(value)
                    continue
                key = self.expr(k)
                if key is UNKNOWN or not _hashable(key):
                    return UNKNOWN
                out[key] = value
            return out
        if isinstance(node, ast.JoinedStr):
            return self.fstring(node)
        if isinstance(node, ast.BinOp):
            return _binop(node.op, self.expr(node.left), self.expr(node.right))
        if isinstance(node, ast.UnaryOp):
            v = self.expr(node.operand)
            if v is UNKNOWN or isinstance(v, _Ref):
                return UNKNOWN
            if isinstance(node.op, ast.Not):
                return not _truth(v)
            if isinstance(node.op, ast.USub) and isinstance(v, (int, float)):
                return -v
            return UNKNOWN
        if isinstance(node, ast.BoolOp):
            result: Any = UNKNOWN
            for v_node in node.values:
                result = self.expr(v_node)
                if result is UNKNOWN or isinstance(result, _Ref):
                    return UNKNOWN
                if isinstance(node.op, ast.And) != _truth(result):
                    return result
            return result
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.IfExp):
            test = self.expr(node.test)
            if test is UNKNOWN or isinstance(test, _Ref):
                self.expr(node.body)
                self.expr(node.orelse)
                return UNKNOWN
            return self.expr(node.body if _truth(test) else node.orelse)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Subscript):
            base, key = self.expr(node.value), self.expr(node.slice)
            if (
                isinstance(base, (tuple, str, dict))
                and _hashable(key)
                and not isinstance(key, _Unknown)
            ):
                try:
                    return base[key]
                except (KeyError, IndexError, TypeError):
                    return UNKNOWN
            return UNKNOWN
        if isinstance(node, ast.NamedExpr):
            value = self.expr(node.value)
            self.assign(node.target, value)
            return value
        return UNKNOWN

    def fstring(self, node: ast.JoinedStr) -> Any:
        parts: list[str] = []
        for v in node.values:
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                parts.append(v.value)
                continue
            if not isinstance(v, ast.FormattedValue) or v.format_spec is not None:
                return UNKNOWN
            value = self.expr(v.value)
            if value is UNKNOWN or isinstance(value, (_Ref, dict)):
                return UNKNOWN
            parts.append(repr(value) if v.conversion == ord("r") else str(value))
        return _cap("".join(parts))

    def compare(self, node: ast.Compare) -> Any:
        left = self.expr(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = self.expr(right_node)
            if (
                left is UNKNOWN
                or right is UNKNOWN
                or isinstance(left, _Ref)
                or isinstance(right, _Ref)
            ):
                return UNKNOWN
            try:
                ok = _COMPARE[type(op)](left, right)
            except (KeyError, TypeError):
                return UNKNOWN
            if not ok:
                return False
            left = right
        return True

    def call(self, node: ast.Call) -> Any:
        args: list[Any] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                more = self.expr(a.value)
                if not isinstance(more, tuple):
                    args.append(UNKNOWN)
                    continue
                args.extend(more)
            else:
                args.append(self.expr(a))
        kwargs: dict[Any, Any] = {}
        for k in node.keywords:
            value = self.expr(k.value)
            if k.arg is not None:
                kwargs[k.arg] = value
            elif isinstance(value, dict) and all(isinstance(x, str) for x in value):
                kwargs.update(value)
            else:
                kwargs[UNKNOWN] = UNKNOWN
        f = node.func
        me = self.me
        if me is not None and isinstance(f, ast.Attribute):
            target = f.value
            # super().m(...), super(K, self).m(...)
            if (
                isinstance(target, ast.Call)
                and isinstance(target.func, ast.Name)
                and target.func.id == "super"
            ):
                after = self.owner
                if len(target.args) == 2 and isinstance(target.args[0], ast.Name):
                    after = target.args[0].id
                return self.call_method(me.order, after, f.attr, args, kwargs, node)
            # self.m(...)
            if self._is_self(target):
                return self.call_method(me.order, None, f.attr, args, kwargs, node)
            # K.m(self, ...) for a class K of the file, or CLIPlugin
            if node.args and isinstance(node.args[0], ast.Name) and self._is_self(node.args[0]):
                if isinstance(target, ast.Name) and target.id in self.mod.classes:
                    return self.call_method(
                        self.mod.mro(target.id), None, f.attr, args[1:], kwargs, node
                    )
                if self.mod.dotted(target) == BASE:
                    return self.base_method(f.attr, args[1:], kwargs, node)
            obj = self.expr(target)
            if isinstance(obj, str) and f.attr in _STR_METHODS and not kwargs:
                if all(isinstance(a, (str, int, tuple)) for a in args):
                    try:
                        return _cap(getattr(obj, f.attr)(*args))
                    except (TypeError, ValueError):
                        return UNKNOWN
            return UNKNOWN
        callee = self.expr(f) if not isinstance(f, ast.Name) or f.id != "super" else UNKNOWN
        if isinstance(callee, _Ref) and callee.dotted.startswith("builtins.") and not kwargs:
            return _builtin(callee.dotted[9:], args)
        return UNKNOWN


def _opaque(value: str) -> str:
    """The stand-in for a plugin's own type= function (its value is not checked here)."""
    return value


def _action_name(action: argparse.Action) -> str:
    if isinstance(action, argparse.BooleanOptionalAction):
        return "boolean_optional"
    for name, cls in (
        ("store", argparse._StoreAction),
        ("store_const", argparse._StoreConstAction),
        ("store_true", argparse._StoreTrueAction),
        ("store_false", argparse._StoreFalseAction),
        ("append", argparse._AppendAction),
        ("append_const", argparse._AppendConstAction),
        ("count", argparse._CountAction),
        ("help", argparse._HelpAction),
        ("version", argparse._VersionAction),
        ("extend", argparse._ExtendAction),
    ):
        if type(action) is cls:
            return name
    return type(action).__name__


def _help(action: argparse.Action) -> str | None:
    """The help as --help shows it: argparse's %-expansion (%(default)s, ...)."""
    text = action.help
    if text is None or "%" not in text:
        return text
    params = {k: v for k, v in vars(action).items() if v is not argparse.SUPPRESS}
    if params.get("choices") is not None:
        params["choices"] = ", ".join(map(str, params["choices"]))
    for k, v in list(params.items()):
        if hasattr(v, "__name__"):
            params[k] = v.__name__
    try:
        return text % params
    except (KeyError, TypeError, ValueError):
        return text


def _frozen(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, _frozen(v)) for k, v in value.items())
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    return value


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _truth(value: Any) -> bool:
    return bool(value) if not isinstance(value, _Ref) else True


def _cap(value: Any) -> Any:
    if isinstance(value, str) and len(value) > _LONGEST:
        return UNKNOWN
    if isinstance(value, list):
        return tuple(value)
    return value


def _binop(op: ast.operator, a: Any, b: Any) -> Any:
    if a is UNKNOWN or b is UNKNOWN or isinstance(a, _Ref) or isinstance(b, _Ref):
        return UNKNOWN
    if isinstance(op, ast.Add) and type(a) is type(b) and isinstance(a, (str, tuple, int, float)):
        if isinstance(a, (str, tuple)) and len(a) + len(b) > _LONGEST:
            return UNKNOWN
        return a + b
    if isinstance(op, ast.Mod) and isinstance(a, str):
        try:
            return _cap(a % b)
        except (TypeError, ValueError, KeyError):
            return UNKNOWN
    if isinstance(op, ast.Sub) and isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a - b
    return UNKNOWN


def _builtin(name: str, args: list[Any]) -> Any:
    if any(a is UNKNOWN or isinstance(a, _Ref) for a in args) or len(args) != 1:
        return UNKNOWN
    (a,) = args
    try:
        if name == "len" and isinstance(a, (str, tuple, dict)):
            return len(a)
        if name in ("tuple", "list") and isinstance(a, (str, tuple, dict)):
            return tuple(a)
        if name == "sorted" and isinstance(a, (str, tuple, dict)):
            return tuple(sorted(a))
        if name in ("str", "bool") and isinstance(a, (str, int, float, bool)):
            return str(a) if name == "str" else bool(a)
        if name in ("int", "float") and isinstance(a, (str, int, float)) and len(str(a)) < 100:
            return int(a) if name == "int" else float(a)
    except (TypeError, ValueError):
        return UNKNOWN
    return UNKNOWN


_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: lambda a, b: bool(a == b),
    ast.NotEq: lambda a, b: bool(a != b),
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: lambda a, b: a is b,
    ast.IsNot: lambda a, b: a is not b,
    ast.Lt: lambda a, b: bool(a < b),
    ast.LtE: lambda a, b: bool(a <= b),
    ast.Gt: lambda a, b: bool(a > b),
    ast.GtE: lambda a, b: bool(a >= b),
}


def _adds(node: ast.AST) -> bool:
    """Whether ``node`` holds a call that may add an option (add_option, or a method)."""
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) for n in ast.walk(node)
    )


def _short(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."
