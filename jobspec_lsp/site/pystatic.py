"""Python read without running it: a module's top-level names, and statements and
expressions followed over the literal values they use (constants, tuples, dicts, strings
and a few pure operations on them). What needs running to be known is :data:`UNKNOWN`;
a name from elsewhere is a :class:`Ref` (``argparse.SUPPRESS``, ``int``). Nothing is ever
imported or called but pure operations of ``str`` and a few builtins on literal values,
and the work is bounded (steps, nesting, string lengths).

:class:`Frame` follows a function's body; a subclass says what calls, ``self``'s
attributes and ``raise`` mean (see :mod:`.pluginread`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

STEPS = 200_000  # statements and expressions followed in one module, at most
LONGEST = 100_000  # characters of a string built while reading, at most
ITEMS = 10_000  # items of a for loop followed, at most


class _Unknown:
    """A value not known without running the code."""

    def __repr__(self) -> str:
        return "<unknown>"


UNKNOWN: Any = _Unknown()
MISS: Any = object()  # a hook of Frame: "not mine"


@dataclass(frozen=True)
class Ref:
    """A name from outside the module: ``argparse.SUPPRESS``, ``builtins.int``, ..."""

    dotted: str


class Stop(Exception):
    """The statements after this one are not run (return, raise, too many steps)."""


class Break(Exception):
    pass


class Continue(Exception):
    pass


_STR_METHODS = frozenset(
    {
        "startswith", "endswith", "lower", "upper", "strip", "lstrip", "rstrip",
        "replace", "removeprefix", "removesuffix", "split", "join", "title", "capitalize",
    }
)  # fmt: skip
_BUILTINS = frozenset({"int", "float", "str", "bool", "len", "tuple", "list", "sorted"})


class Module:
    """A module's top-level names: imports (local name -> dotted name), classes, and
    constants (assignments of literal values), in the order the module binds them."""

    def __init__(self, tree: ast.Module):
        self.imports: dict[str, str] = {}
        self.classes: dict[str, ast.ClassDef] = {}
        self.globals: dict[str, Any] = {}
        self.steps = 0
        self.uncertain = 0  # inside an `if` not read, or a `try`: a raise may not end it
        for stmt in tree.body:
            self._top(stmt)

    def warn(self, line: int | None, message: str) -> None:
        """What could not be read (a subclass keeps it)."""

    def step(self) -> None:
        self.steps += 1
        if self.steps > STEPS:
            self.warn(None, f"stopped reading after {STEPS:,} steps: what follows is not read")
            raise Stop

    def evaluate(self, node: ast.expr) -> Any:
        """``node``'s value at the module's top level."""
        try:
            return Frame(self, {}).expr(node)
        except (Stop, Break, Continue):
            return UNKNOWN

    def dotted(self, node: ast.expr) -> str | None:
        """What ``node`` names from outside the module (``argparse.SUPPRESS``), or None."""
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

    def _top(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Import):
            for a in stmt.names:
                local = a.asname or a.name.split(".")[0]
                self.imports[local] = a.name if a.asname else local
                self.globals.pop(local, None)
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
            value = self.evaluate(stmt.value)
            for t in targets:
                if isinstance(t, ast.Name):
                    self.globals[t.id] = value
                    self.classes.pop(t.id, None)
        elif isinstance(stmt, (ast.If, ast.Try)):
            for inner in [*stmt.body, *stmt.orelse]:  # the names bound either way
                self._top(inner)


class Frame:
    """One function's body (or the module's top level) followed with the values of
    ``env``; the hooks (:meth:`call_hook`, :meth:`attr_hook`, :meth:`set_attr`,
    :meth:`on_raise`) give the meaning of what is not plain data."""

    def __init__(self, mod: Module, env: dict[str, Any]):
        self.mod = mod
        self.env = env

    # ---- hooks
    def call_hook(
        self, node: ast.Call, f: ast.Attribute, args: list[Any], kwargs: dict[Any, Any]
    ) -> Any:
        """A method call's value, or MISS: not one the subclass knows."""
        return MISS

    def attr_hook(self, node: ast.Attribute) -> Any:
        return MISS

    def set_attr(self, target: ast.Attribute, value: Any) -> None:
        pass

    def on_raise(self, s: ast.Raise) -> None:
        pass

    def warn(self, line: int | None, message: str) -> None:
        self.mod.warn(line, message)

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
            if test is UNKNOWN or isinstance(test, Ref):
                if calls(s):
                    self.warn(
                        s.lineno,
                        f"`if {short(s.test)}` is not read without running the plugin: "
                        "what both branches do is kept",
                    )
                self.maybe(s.body)
                self.maybe(s.orelse)
            else:
                self.block(s.body if truth(test) else s.orelse)
        elif isinstance(s, ast.For):
            self.loop(s)
        elif isinstance(s, ast.While):
            if calls(s):
                self.warn(s.lineno, "a while loop is not followed: what it does is left out")
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
            raise Stop
        elif isinstance(s, ast.Raise):
            self.on_raise(s)
            raise Stop
        elif isinstance(s, ast.Break):
            raise Break
        elif isinstance(s, ast.Continue):
            raise Continue
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
        except (Stop, Break, Continue):
            pass
        finally:
            self.mod.uncertain -= 1

    def loop(self, s: ast.For) -> None:
        items = self.expr(s.iter)
        if isinstance(items, dict):
            items = tuple(items)
        if not isinstance(items, (tuple, str)) or len(items) > ITEMS:
            if calls(s):
                self.warn(
                    s.lineno,
                    f"`for` over {short(s.iter)} is not read without running the plugin: "
                    "what it does is left out",
                )
            return
        for item in items:
            self.assign(s.target, item)
            try:
                self.block(s.body)
            except Break:
                return
            except Continue:
                continue
        self.block(s.orelse)

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = value
        elif isinstance(target, ast.Attribute):
            self.set_attr(target, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            parts = value if isinstance(value, tuple) and len(value) == len(target.elts) else None
            for k, t in enumerate(target.elts):
                self.assign(t, parts[k] if parts is not None else UNKNOWN)

    # ---- expressions
    def expr(self, node: ast.expr) -> Any:
        """The value of an expression, by the reading :data:`_EXPRESSIONS` names for its
        kind (:data:`UNKNOWN` for any other kind)."""
        self.mod.step()
        reading = _EXPRESSIONS.get(type(node))
        return UNKNOWN if reading is None else getattr(self, reading)(node)

    def constant(self, node: ast.Constant) -> Any:
        return node.value

    def name(self, node: ast.Name) -> Any:
        if node.id in self.env:
            return self.env[node.id]
        if node.id in self.mod.globals:
            return self.mod.globals[node.id]
        ref = self.mod.dotted(node)
        return Ref(ref) if ref else UNKNOWN

    def attribute(self, node: ast.Attribute) -> Any:
        got = self.attr_hook(node)
        if got is not MISS:
            return got
        ref = self.mod.dotted(node)
        return Ref(ref) if ref else UNKNOWN

    def sequence(self, node: ast.Tuple | ast.List | ast.Set) -> Any:
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

    def binary(self, node: ast.BinOp) -> Any:
        return binop(node.op, self.expr(node.left), self.expr(node.right))

    def unary(self, node: ast.UnaryOp) -> Any:
        v = self.expr(node.operand)
        if not known(v):
            return UNKNOWN
        if isinstance(node.op, ast.Not):
            return not truth(v)
        if isinstance(node.op, ast.USub) and isinstance(v, (int, float)):
            return -v
        return UNKNOWN

    def boolean(self, node: ast.BoolOp) -> Any:
        result: Any = UNKNOWN
        for v_node in node.values:
            result = self.expr(v_node)
            if not known(result):
                return UNKNOWN
            if isinstance(node.op, ast.And) != truth(result):
                return result
        return result

    def conditional(self, node: ast.IfExp) -> Any:
        test = self.expr(node.test)
        if not known(test):
            self.expr(node.body)
            self.expr(node.orelse)
            return UNKNOWN
        return self.expr(node.body if truth(test) else node.orelse)

    def subscript(self, node: ast.Subscript) -> Any:
        base, key = self.expr(node.value), self.expr(node.slice)
        if isinstance(base, (tuple, str, dict)) and known(key) and hashable(key):
            try:
                return base[key]
            except (KeyError, IndexError, TypeError):
                return UNKNOWN
        return UNKNOWN

    def named(self, node: ast.NamedExpr) -> Any:
        value = self.expr(node.value)
        self.assign(node.target, value)
        return value

    def dict(self, node: ast.Dict) -> Any:
        out: dict[Any, Any] = {}
        for k, v in zip(node.keys, node.values):
            value = self.expr(v)
            if k is None:
                if not isinstance(value, dict):
                    return UNKNOWN
                out.update(value)
                continue
            key = self.expr(k)
            if not known(key) or not hashable(key):
                return UNKNOWN
            out[key] = value
        return out

    def fstring(self, node: ast.JoinedStr) -> Any:
        parts: list[str] = []
        for v in node.values:
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                parts.append(v.value)
                continue
            if not isinstance(v, ast.FormattedValue) or v.format_spec is not None:
                return UNKNOWN
            value = self.expr(v.value)
            if not known(value) or isinstance(value, dict):
                return UNKNOWN
            parts.append(repr(value) if v.conversion == ord("r") else str(value))
        return cap("".join(parts))

    def compare(self, node: ast.Compare) -> Any:
        left = self.expr(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = self.expr(right_node)
            if not known(left) or not known(right):
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
                args.extend(more if isinstance(more, tuple) else [UNKNOWN])
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
                kwargs[UNKNOWN] = UNKNOWN  # **mapping not known
        f = node.func
        if isinstance(f, ast.Attribute):
            got = self.call_hook(node, f, args, kwargs)
            if got is not MISS:
                return got
            obj = self.expr(f.value)
            if isinstance(obj, str) and f.attr in _STR_METHODS and not kwargs:
                if all(isinstance(a, (str, int, tuple)) for a in args):
                    try:
                        return cap(getattr(obj, f.attr)(*args))
                    except (TypeError, ValueError):
                        return UNKNOWN
            return UNKNOWN
        callee = self.expr(f)
        if isinstance(callee, Ref) and callee.dotted.startswith("builtins.") and not kwargs:
            return _builtin(callee.dotted[9:], args)
        return UNKNOWN


# the reading of each kind of expression: a method of Frame, by name (a subclass may
# override one); any other kind is UNKNOWN
_EXPRESSIONS: dict[type[ast.expr], str] = {
    ast.Constant: "constant",
    ast.Name: "name",
    ast.Attribute: "attribute",
    ast.Tuple: "sequence",
    ast.List: "sequence",
    ast.Set: "sequence",
    ast.Dict: "dict",
    ast.JoinedStr: "fstring",
    ast.BinOp: "binary",
    ast.UnaryOp: "unary",
    ast.BoolOp: "boolean",
    ast.Compare: "compare",
    ast.IfExp: "conditional",
    ast.Call: "call",
    ast.Subscript: "subscript",
    ast.NamedExpr: "named",
}


def known(value: Any) -> bool:
    return value is not UNKNOWN and not isinstance(value, Ref)


def truth(value: Any) -> bool:
    return bool(value) if not isinstance(value, Ref) else True


def hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def cap(value: Any) -> Any:
    if isinstance(value, str) and len(value) > LONGEST:
        return UNKNOWN
    if isinstance(value, list):
        return tuple(value)
    return value


def binop(op: ast.operator, a: Any, b: Any) -> Any:
    if not known(a) or not known(b):
        return UNKNOWN
    if isinstance(op, ast.Add) and type(a) is type(b) and isinstance(a, (str, tuple, int, float)):
        if isinstance(a, (str, tuple)) and len(a) + len(b) > LONGEST:
            return UNKNOWN
        return a + b
    if isinstance(op, ast.Mod) and isinstance(a, str):
        try:
            return cap(a % b)
        except (TypeError, ValueError, KeyError):
            return UNKNOWN
    if isinstance(op, ast.Sub) and isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a - b
    return UNKNOWN


def _builtin(name: str, args: list[Any]) -> Any:
    if len(args) != 1 or not known(args[0]):
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


def calls(node: ast.AST) -> bool:
    """Whether ``node`` holds a method call (one that may matter: add_option, ...)."""
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) for n in ast.walk(node)
    )


def short(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."
