"""One CLI plugin file read as Flux's loader makes plugins of it, without importing it.

flux-core 0.88 (``flux/cli/plugin.py``) imports the file and makes an instance of each
name of the module (in name order, not one starting with ``_``) that is a class derived
from ``flux.cli.plugin.CLIPlugin``, passing ``prog`` ``"flux run"`` (submit, batch,
alloc, bulksubmit); ``CLIPlugin.__init__`` keeps ``self.prog`` without the ``flux `` and
``self.prefix`` (``"ex"`` unless the plugin passes another). ``self.add_option("--NAME",
**kwargs)`` registers ``--PREFIX-NAME`` (``--NAME`` when the prefix is empty), with the
prefixed name, dashes as underscores, as its dest unless ``dest=`` is given; the command
hands the kwargs to argparse's ``add_argument``.

Here the ``__init__`` of each plugin class is followed once per command with
:mod:`.pystatic` (its arguments, ``self.prog`` and ``self.prefix``, constants of the
module and class, ``if`` and ``for`` over them, ``super().__init__``, ``Base.__init__``,
calls of the plugin's own methods), and each option's keyword arguments are handed to a
throwaway argparse parser, so they are taken or refused as the command's parser takes
them (a ``type=`` of the plugin's own is not run: any value passes it).
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jobspec_lsp.fluxcli import model
from jobspec_lsp.site.pystatic import MISS, UNKNOWN, Break, Continue, Frame, Module, Ref, Stop
from jobspec_lsp.text import files

BASE = "flux.cli.plugin.CLIPlugin"
DEFAULT_PREFIX = "ex"  # CLIPlugin.__init__(self, prog, prefix="ex", version=None)
HOOKS = ("preinit", "modify_jobspec", "validate")  # what a plugin may do besides options
DEPTH = 32  # nested method calls followed, at most
_TYPES = {"builtins.int": int, "builtins.float": float, "builtins.str": str}


@dataclass(frozen=True)
class Problem:
    """What is wrong with a plugin file, or what could not be read in it. ``severity``
    "error": Flux fails with it (every command, or those the message names);
    "warning": Flux takes it but leaves something out, or it was not read statically."""

    path: str
    line: int | None
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


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
    """One plugin class Flux makes from a file."""

    name: str
    path: str
    line: int
    hooks: tuple[str, ...]  # which of HOOKS it defines (validate: job-ingest calls it)


Found = list[tuple[Plugin, dict[str, list[PluginOption]]]]  # each plugin, its options by command


def read_file(path: Path, problems: list[Problem]) -> Found:
    """The plugins of one file and what each adds to each command (``commands`` empty:
    the registry fills it in); what is wrong goes to ``problems``."""
    shown = str(path)
    fails = "Flux fails (every command)"
    try:
        source = files.read_regular(path, 16 << 20)
    except files.Unreadable as err:
        problems.append(Problem(shown, None, f"{fails}: cannot read it: {err}"))
        return []
    try:
        tree = ast.parse(source, filename=shown)
    except SyntaxError as err:
        problems.append(Problem(shown, err.lineno, f"Python cannot import it, {fails}: {err.msg}"))
        return []
    except (ValueError, RecursionError, MemoryError) as err:  # NUL bytes, deep nesting
        problems.append(Problem(shown, None, f"Python cannot import it, {fails}: {err}"))
        return []
    module = None
    try:
        module = _Plugins(tree, shown)
        return module.plugins()
    except RecursionError:
        problems.append(Problem(shown, None, "too deeply nested to read: left out", "warning"))
        return []
    finally:
        if module is not None:
            problems.extend(module.problems())


def commands(cmds: list[str]) -> str:
    """The commands a problem is found for, as a message says them."""
    return "flux " + ", ".join(cmds) if len(cmds) < len(model.COMMANDS) else "every command"


@dataclass
class _Self:
    """The plugin instance while its __init__ is followed for one command."""

    order: list[str]  # its MRO: classes of the file, then "<CLIPlugin>" or "<?NAME>"
    attrs: dict[str, Any] = field(default_factory=dict)
    added: list[PluginOption] = field(default_factory=list)


class _Plugins(Module):
    """The file: its plugin classes, their MROs, and what was said about it."""

    def __init__(self, tree: ast.Module, path: str):
        self.path = path
        # (line, severity, message) -> the commands it is found for (\x00 in the message)
        self.said: dict[tuple[int | None, str, str], list[str]] = {}
        self.command = ""  # the command whose instance is being made
        self._mros: dict[str, list[str]] = {}
        super().__init__(tree)

    def warn(self, line: int | None, message: str) -> None:
        self.say(line, message, "warning")

    def say(self, line: int | None, message: str, severity: str = "error") -> None:
        """A problem; ``\\x00`` in ``message`` stands for the commands it is found for."""
        cmds = self.said.setdefault((line, severity, message), [])
        if self.command and self.command not in cmds:
            cmds.append(self.command)

    def problems(self) -> list[Problem]:
        return [
            Problem(self.path, line, message.replace("\x00", commands(cmds)), severity)
            for (line, severity, message), cmds in self.said.items()
        ]

    def base_of(self, node: ast.expr) -> str | None:
        """A class's base as its MRO names it: a class of the file, "<CLIPlugin>",
        "<?NAME>" (from elsewhere), or None (object)."""
        if isinstance(node, ast.Name) and node.id in self.classes:
            return node.id
        if isinstance(node, ast.Name) and node.id == "object":
            return None
        name = self.dotted(node)
        return "<CLIPlugin>" if name == BASE else f"<?{name or ast.unparse(node)}>"

    def mro(self, name: str, seen: tuple[str, ...] = ()) -> list[str]:
        """Python's C3 order of a class of the file (what is not of the file ends it)."""
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

    def plugins(self) -> Found:
        out = []
        for name in sorted(self.classes):  # dir(module): in name order
            cls = self.classes[name]
            if "<CLIPlugin>" not in self.mro(name):
                self._foreign_bases(cls)
                continue
            if name.startswith("_"):
                continue  # Flux skips the module's names starting with _
            hooks = tuple(h for h in HOOKS if self.find(self.mro(name), None, h)[0] == "local")
            per = {cmd: self.instantiate(name, cmd) for cmd in model.COMMANDS}
            out.append((Plugin(name, self.path, cls.lineno, hooks), per))
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
        for b in cls.bases if looks else []:
            name = self.dotted(b)
            if name is None or name.startswith("builtins."):
                continue
            if name.startswith(".") or name.split(".")[0] not in sys.stdlib_module_names:
                self.warn(
                    cls.lineno,
                    f"class {cls.name} derives from {name}, not in this file: if that is a "
                    "CLIPlugin, Flux loads it as a plugin, and its options are not read here",
                )

    def instantiate(self, name: str, cmd: str) -> list[PluginOption]:
        """What ``Class("flux CMD")`` adds: the class's __init__ followed."""
        me = _Self(self.mro(name))
        self.command = cmd
        try:
            _Method(self, {}, me).call_method(
                me.order, None, "__init__", [f"flux {cmd}"], {}, self.classes[name]
            )
        except (Stop, Break, Continue):
            pass
        return me.added

    def find(
        self, mro: list[str], after: str | None, method: str
    ) -> tuple[str, ast.FunctionDef | None, str | None]:
        """``method`` as ``mro`` finds it after class ``after``: ("local", def, owner),
        ("base", None, None) for CLIPlugin's own, ("unknown", None, NAME) from a class of
        elsewhere, ("none", None, None)."""
        start = mro.index(after) + 1 if after in mro else 0
        for owner in mro[start:]:
            if owner == "<CLIPlugin>":
                return "base", None, None
            if owner.startswith("<?"):
                return "unknown", None, owner[2:-1]
            found = None
            for stmt in self.classes[owner].body:
                if isinstance(stmt, ast.FunctionDef) and stmt.name == method:
                    found = stmt
                elif _binds(stmt, method):
                    found = None  # rebound to something else
            if found is not None:
                return "local", found, owner
        return "none", None, None

    def class_attr(self, mro: list[str], attr: str) -> Any:
        for owner in mro:
            if owner.startswith("<"):
                break
            value: Any = MISS
            for stmt in self.classes[owner].body:
                if _binds(stmt, attr) and isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                    value = self.evaluate(stmt.value) if stmt.value is not None else UNKNOWN
            if value is not MISS:
                return value
        return UNKNOWN


def _binds(stmt: ast.stmt, name: str) -> bool:
    targets = (
        stmt.targets
        if isinstance(stmt, ast.Assign)
        else [stmt.target]
        if isinstance(stmt, ast.AnnAssign)
        else []
    )
    return any(isinstance(t, ast.Name) and t.id == name for t in targets)


class _Method(Frame):
    """A method of the plugin followed for one instance (``me``)."""

    def __init__(
        self,
        mod: _Plugins,
        env: dict[str, Any],
        me: _Self,
        owner: str | None = None,
        self_name: str | None = None,
        depth: int = 0,
    ):
        super().__init__(mod, env)
        self.plugins = mod
        self.me = me
        self.owner = owner  # the class whose method this is (for super())
        self.self_name = self_name
        self.depth = depth

    def is_self(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id == self.self_name and node.id not in self.env

    # ---- the hooks of Frame
    def attr_hook(self, node: ast.Attribute) -> Any:
        if self.is_self(node.value):
            if node.attr in self.me.attrs:
                return self.me.attrs[node.attr]
            return self.plugins.class_attr(self.me.order, node.attr)
        return MISS

    def set_attr(self, target: ast.Attribute, value: Any) -> None:
        if self.is_self(target.value):
            self.me.attrs[target.attr] = value

    def on_raise(self, s: ast.Raise) -> None:
        if not self.mod.uncertain:
            self.plugins.say(s.lineno, "raises as Flux makes the plugin: Flux fails (\x00)")

    def call_hook(
        self, node: ast.Call, f: ast.Attribute, args: list[Any], kwargs: dict[Any, Any]
    ) -> Any:
        target = f.value
        if isinstance(target, ast.Call) and isinstance(target.func, ast.Name):
            if target.func.id == "super":  # super().m(...), super(K, self).m(...)
                after = self.owner
                if len(target.args) == 2 and isinstance(target.args[0], ast.Name):
                    after = target.args[0].id
                return self.call_method(self.me.order, after, f.attr, args, kwargs, node)
        if self.is_self(target):  # self.m(...)
            return self.call_method(self.me.order, None, f.attr, args, kwargs, node)
        if node.args and isinstance(node.args[0], ast.Name) and self.is_self(node.args[0]):
            if isinstance(target, ast.Name) and target.id in self.mod.classes:  # K.m(self)
                mro = self.plugins.mro(target.id)
                return self.call_method(mro, None, f.attr, args[1:], kwargs, node)
            if self.mod.dotted(target) == BASE:  # CLIPlugin.m(self, ...)
                return self.base_method(f.attr, args[1:], kwargs, node.lineno)
        return MISS

    # ---- calls of the plugin's methods
    def call_method(
        self,
        mro: list[str],
        after: str | None,
        method: str,
        args: list[Any],
        kwargs: dict[Any, Any],
        at: ast.stmt | ast.expr,
    ) -> Any:
        """``method`` as ``mro`` finds it after class ``after`` (None: from the start),
        called on the plugin with ``args`` and ``kwargs``."""
        kind, fn, owner = self.plugins.find(mro, after, method)
        if kind == "base":
            return self.base_method(method, args, kwargs, at.lineno)
        if kind == "unknown" and method in ("__init__", "add_option"):
            self.warn(at.lineno, f"{method} of {owner}, not in this file: not read")
        if kind != "local" or fn is None:
            return UNKNOWN
        if self.depth >= DEPTH:
            self.warn(at.lineno, f"calls nested more than {DEPTH} deep: not followed")
            return UNKNOWN
        env = self.bind(fn, args, kwargs, top=self.depth == 0)
        if env is None:
            return UNKNOWN
        params = [*fn.args.posonlyargs, *fn.args.args]
        me = params[0].arg if params else None
        frame = _Method(self.plugins, env, self.me, owner, me, self.depth + 1)
        try:
            frame.block(fn.body)
        except Stop:
            pass
        return UNKNOWN

    def bind(
        self, fn: ast.FunctionDef, args: list[Any], kwargs: dict[Any, Any], top: bool
    ) -> dict[str, Any] | None:
        """The parameters of ``fn`` given ``args`` and ``kwargs`` (None: Python refuses)."""
        a = fn.args
        params = [*a.posonlyargs, *a.args][1:]  # after self
        defaults = [self.mod.evaluate(d) for d in a.defaults]
        first_default = len(params) - len(defaults)  # the defaults are of the last ones
        env: dict[str, Any] = {}
        why = None
        for i, p in enumerate(params):
            if i < len(args):
                env[p.arg] = args[i]
            elif p.arg in kwargs:
                env[p.arg] = kwargs.pop(p.arg)
            elif i >= first_default:
                env[p.arg] = defaults[i - first_default]
            else:
                why = f"{fn.name}() needs an argument {p.arg!r}"
        if len(args) > len(params) and a.vararg is None:
            why = f"{fn.name}() takes fewer arguments"
        if a.vararg is not None:
            env[a.vararg.arg] = tuple(args[len(params) :])
        for p, d in zip(a.kwonlyargs, a.kw_defaults):
            if p.arg in kwargs:
                env[p.arg] = kwargs.pop(p.arg)
            elif d is not None:
                env[p.arg] = self.mod.evaluate(d)
            else:
                why = f"{fn.name}() needs an argument {p.arg!r}"
        if a.kwarg is not None:
            env[a.kwarg.arg] = dict(kwargs)
        elif kwargs and UNKNOWN not in kwargs:
            why = f"{fn.name}() takes no argument {next(iter(kwargs))!r}"
        if why is None:
            return env
        if top:
            self.plugins.say(
                fn.lineno,
                f"Flux cannot make the plugin, and fails (\x00): {why} (Flux passes only prog)",
            )
        else:
            self.warn(fn.lineno, f"{why}: not followed")
        return None

    def base_method(self, method: str, args: list[Any], kwargs: dict[Any, Any], line: int) -> Any:
        """A method of CLIPlugin itself: __init__ and add_option are what matter."""
        if method == "__init__":
            names = ["prog", "prefix", "version"]
            given = dict(zip(names, args))
            given.update({k: v for k, v in kwargs.items() if k in names})
            prog = given.get("prog", UNKNOWN)
            if isinstance(prog, str) and prog.startswith("flux "):
                prog = prog[5:]
            unread = UNKNOWN in kwargs or len(args) > 3
            self.me.attrs["prog"] = prog
            self.me.attrs["prefix"] = given.get("prefix", UNKNOWN if unread else DEFAULT_PREFIX)
            self.me.attrs["version"] = given.get("version")
            self.me.attrs["options"] = UNKNOWN
            return None
        if method == "add_option":
            self.add_option(args, kwargs, line)
        return UNKNOWN

    # ---- add_option
    def add_option(self, args: list[Any], kwargs: dict[Any, Any], line: int) -> None:
        say, warn = self.plugins.say, self.warn
        if "name" in kwargs and not args:
            args = [kwargs.pop("name")]
        if len(args) != 1:
            say(line, "add_option takes one option name and keywords: Flux fails (\x00)")
            return
        name = args[0]
        if not isinstance(name, str):
            warn(line, "an option whose name is not read without running the plugin: left out")
            return
        if not name.startswith("--"):
            say(line, f"{name}: Flux fails with it (\x00): plugins must register only long options")
            return
        prefix = self.me.attrs.get("prefix", UNKNOWN)
        if not (prefix is None or isinstance(prefix, str)):
            warn(line, f"{name}: its prefix is not read without running the plugin: left out")
            return
        full = name.replace("--", f"--{prefix}-", 1) if prefix else name
        if UNKNOWN in kwargs:
            warn(line, f"{full}: keyword arguments not read statically; read without them")
            del kwargs[UNKNOWN]
        kw, type_name = self._kwargs(full, kwargs, line)
        kw.setdefault("dest", full[2:].replace("-", "_"))
        parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
        try:
            action = parser.add_argument(full, **kw)
        except (TypeError, ValueError, argparse.ArgumentError) as err:
            say(line, f"{full}: Flux fails with it (\x00): argparse: {err}")
            return
        takes = action.nargs != 0
        if takes and action.nargs not in (None, "?", "*"):
            warn(line, f"{full}: nargs={action.nargs!r} is read as one value")
        if action.required:
            warn(line, f"{full} is required: Flux refuses a command line without it (\x00)")
        kind = _action_name(action)
        hidden = action.help == argparse.SUPPRESS
        self.me.added.append(
            PluginOption(
                full,
                self.me.order[0],
                self.plugins.path,
                line,
                (),
                takes,
                _metavar(action) if takes else None,
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

    def _kwargs(
        self, full: str, kwargs: dict[Any, Any], line: int
    ) -> tuple[dict[str, Any], str | None]:
        """The keyword arguments for add_argument, as far as they are known, and the
        name of type= (a plugin's own function is replaced by one that takes any value)."""
        kw: dict[str, Any] = {}
        type_name = None
        for k, v in kwargs.items():
            if k == "type" and v is not None:
                ref = v.dotted if isinstance(v, Ref) else "?"
                kw[k], type_name = _TYPES.get(ref, _opaque), ref.split(".")[-1]
            elif k == "action" and isinstance(v, Ref):
                if v.dotted == "argparse.BooleanOptionalAction":
                    kw[k] = argparse.BooleanOptionalAction
                else:
                    self.warn(line, f"{full}: action {v.dotted} is not read here; read as store")
            elif k == "help" and isinstance(v, Ref) and v.dotted == "argparse.SUPPRESS":
                kw[k] = argparse.SUPPRESS
            elif v is UNKNOWN or isinstance(v, Ref):
                if k in ("action", "nargs", "dest"):
                    self.warn(line, f"{full}: {k}= is not read statically; argparse's default")
            else:
                kw[k] = v
        return kw, type_name


def _opaque(value: str) -> str:
    """The stand-in for a plugin's own type= function (its value is not checked here)."""
    return value


def _action_name(action: argparse.Action) -> str:
    if isinstance(action, argparse.BooleanOptionalAction):
        return "boolean_optional"
    name = type(action).__name__  # _StoreTrueAction -> store_true
    words = "".join("_" + c.lower() if c.isupper() else c for c in name.strip("_"))
    return words.strip("_").removesuffix("_action")


def _metavar(action: argparse.Action) -> str:
    """The value's name as --help shows it: metavar, {choices}, or the dest."""
    if action.metavar is not None:
        m = action.metavar
        return m if isinstance(m, str) else " ".join(m)
    if action.choices is not None:
        return "{" + ",".join(map(str, action.choices)) + "}"
    return action.dest.upper()


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
