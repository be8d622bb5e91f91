"""fluxion's jobspec reader as a checker: what ``--target fluxion`` rejects.

fluxion (flux-sched) reads the jobspec again when it schedules a job, with a reader of
its own (``resource/libjobspec``: ``jobspec.cpp`` and ``constraint.cpp``, the reader
``flux-jobspec-validate`` runs). It stops at the first thing it refuses; this checker
reports each, where it is, every one of them a refusal on its own. It reads the JSON
the scheduler receives, through yaml-cpp (how it converts a value:
``rules/fluxionread.py``). ``tests/flux/test_fluxion_drift.py`` holds every class
below against the real reader.

What it refuses, in order: a top level other than a mapping of exactly version,
resources, tasks and attributes; a version outside 1-9999; resource vertices with a
key other than type, count, unit, label, id, exclusive and with (so no ``requires``),
a non-scalar type, unit, label or id, a count that is neither an unsigned integer nor
a range mapping fluxion takes (``+`` needs an operand of at least 1, ``*`` and ``^``
2, ``^`` a min of 2), an exclusive other than true or false, an unlabelled slot;
tasks without command and slot or with other than 3-5 keys, a task count other than
one single value, a task attribute that is not a single value; attributes with keys
other than system and user, system values it cannot convert (duration, cwd, queue,
environment); constraints with more than one operator in a mapping, operator values
that are not lists, property names that are not strings or hold ``!&'"^`|()``,
hostlists and idsets flux-core cannot decode.
"""

from __future__ import annotations

from jobspec_lsp.jobspec.tree import Mapping, Node, Scalar, Sequence, type_name
from jobspec_lsp.rules import fluxionread as read

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from collections.abc import Callable

    Reject = Callable[[Node | None, str], None]

TOP_KEYS = ("version", "resources", "tasks", "attributes")
RESOURCE_KEYS = ("type", "count", "unit", "label", "id", "exclusive", "with")
OPERATORS = ("properties", "hostlist", "ranks", "and", "or", "not")
BAD_PROPERTY = "!&'\"^`|()"


def _fields(node: Mapping) -> dict[str, tuple[Node, Node]]:
    """A mapping's entries by their keys as text (the last of a repeated key wins, as
    in the JSON Flux sends)."""
    out: dict[str, tuple[Node, Node]] = {}
    for key, value in node.pairs:
        name = read.as_string(key)
        out[name if name is not None else repr(key)] = (key, value)
    return out


def _value(fields: dict[str, tuple[Node, Node]], key: str) -> Node | None:
    return fields[key][1] if key in fields else None


def _is_scalar(node: Node | None) -> bool:
    """A scalar to yaml-cpp: not null, not a collection."""
    return read.text(node) is not None


class Reader:
    """Walks a document as fluxion's reader does, calling ``reject(node, message)`` at
    each thing it refuses."""

    def __init__(self, reject: Reject):
        self.reject = reject

    def run(self, root: Node | None) -> None:
        if not isinstance(root, Mapping):
            self.reject(
                root, f"the top level of a jobspec must be a mapping, not {type_name(root)}"
            )
            return
        fields = _fields(root)
        for key in TOP_KEYS:
            if key not in fields:
                self.reject(root, f'the top-level mapping has no "{key}"; add it')
        if len(fields) != 4:
            for name, (knode, _) in fields.items():
                if name not in TOP_KEYS:
                    self.reject(
                        knode,
                        f"the top-level mapping must have exactly the four keys version, "
                        f"resources, tasks and attributes; remove {read.shown(name)}",
                    )
        if "version" in fields:
            self.version(fields["version"][1])
        if "attributes" in fields:
            self.attributes(fields["attributes"][1])
        for key, each in (("resources", self.resource), ("tasks", self.task)):
            if key in fields:
                items = fields[key][1]
                if not isinstance(items, Sequence):
                    self.reject(items, f"{key} must be a list, not {type_name(items)}")
                    continue
                for item in items.items:
                    each(item)

    def version(self, node: Node) -> None:
        if not _is_scalar(node):
            self.reject(node, f"version must be an integer from 1 to 9999, not {type_name(node)}")
            return
        v = read.as_unsigned(read.text(node))
        if v is None:
            self.reject(node, "version must be an integer from 1 to 9999, written in digits")
        elif not 1 <= v <= 9999:
            self.reject(node, f"only jobspec version 1-9999 is supported, not {v}")

    # ------------------------------------------------------------------ resources
    def resource(self, res: Node) -> None:
        if not isinstance(res, Mapping):
            self.reject(res, f"a resource vertex must be a mapping, not {type_name(res)}")
            return
        fields = _fields(res)
        for name, (knode, _) in fields.items():
            if name == "requires":
                self.reject(
                    knode,
                    "requires is not read in a resource vertex (fluxion takes "
                    f"{', '.join(RESOURCE_KEYS)}); ask for properties in "
                    "attributes.system.constraints instead",
                )
            elif name not in RESOURCE_KEYS:
                self.reject(
                    knode,
                    f"unknown key {read.shown(name)} in a resource vertex (fluxion reads "
                    f"{', '.join(RESOURCE_KEYS)})",
                )
        for key in ("type", "count"):
            if key not in fields:
                self.reject(res, f'this resource vertex has no "{key}"; add it')
        self.scalars(fields, ("type", "unit", "label", "id"), "the value of {}")
        if "count" in fields:
            self.count(fields["count"][1])
        if "exclusive" in fields:
            excl = fields["exclusive"][1]
            if read.text(excl) not in ("true", "false"):
                self.reject(excl, f"exclusive must be true or false, not {_shown(excl)}")
        if "with" in fields:
            children = fields["with"][1]
            if not isinstance(children, Sequence):
                self.reject(children, f"with must be a list of vertices, not {type_name(children)}")
            else:
                for child in children.items:
                    self.resource(child)
        if "label" not in fields and "type" in fields and read.text(fields["type"][1]) == "slot":
            self.reject(fields["type"][1], "every slot must have a label: add label: <name>")

    def scalars(
        self, fields: dict[str, tuple[Node, Node]], keys: tuple[str, ...], what: str
    ) -> None:
        """Each of ``keys`` given must be a scalar (``what``: how the message names it)."""
        for key in keys:
            node = _value(fields, key)
            if node is not None and not _is_scalar(node):
                said = what.format(key)
                self.reject(node, f"{said} must be a scalar (a string), not {type_name(node)}")

    def count(self, node: Node) -> None:
        if isinstance(node, Mapping):
            self.count_range(node)
        elif not _is_scalar(node):
            self.reject(
                node,
                f"a count must be an integer or a mapping with min, not {type_name(node)}",
            )
        elif read.as_unsigned(read.text(node)) is None:
            self.reject(
                node,
                f"a count must be an integer from 0 to {read.UINT_MAX} (or a mapping with min), "
                f"not {_shown(node)}: fluxion reads no idset or range strings",
            )

    def count_range(self, node: Mapping) -> None:
        fields = _fields(node)
        if "min" not in fields:
            self.reject(node, 'a count mapping needs "min"; add it')
            return
        got: dict[str, Node] = {
            k: fields[k][1] for k in ("min", "max", "operator", "operand") if k in fields
        }
        if len(got) not in (1, 4):
            self.reject(
                node,
                'give all or none of "max", "operator" and "operand" (e.g. min: 1, max: 4, '
                "operator: '+', operand: 1)",
            )
        values: dict[str, object] = {}
        readers = {"min": read.as_unsigned, "max": read.as_unsigned, "operand": read.as_int}
        for key, value in got.items():
            if not _is_scalar(value):
                self.reject(value, f"{key} must be a scalar, not {type_name(value)}")
                continue
            v = readers.get(key, read.as_char)(read.text(value))
            if v is None:
                self.reject(value, _unread(key, value))
            values[key] = v
        self.count_values(got, values)

    def count_values(self, got: dict[str, Node], values: dict[str, object]) -> None:
        low, high = values.get("min"), values.get("max")
        if isinstance(low, int) and low < 1:
            self.reject(got["min"], "min must be greater than zero")
        if isinstance(low, int) and isinstance(high, int) and high < low:
            self.reject(got["max"], f"max must be greater than or equal to min ({low})")
        if "operator" not in got or values.get("operator") is None:
            return  # none: fluxion adds 1; unreadable: said where it is
        op, operand = values["operator"], values.get("operand")
        if op not in ("+", "*", "^"):
            self.reject(got["operator"], f"the count operator must be '+', '*' or '^', not {op!r}")
        elif isinstance(operand, int) and operand < (1 if op == "+" else 2):
            what = {"+": "zero for addition", "*": "one for multiplication"}.get(
                str(op), "one for exponentiation"
            )
            self.reject(got["operand"], f"operand must be greater than {what} '{op}'")
        if op == "^" and isinstance(low, int) and low == 1:
            self.reject(got["min"], "min must be greater than one for exponentiation '^'")

    # ---------------------------------------------------------------------- tasks
    def task(self, task: Node) -> None:
        if not isinstance(task, Mapping):
            self.reject(task, f"a task must be a mapping, not {type_name(task)}")
            return
        fields = _fields(task)
        for key in ("command", "slot"):
            if key not in fields:
                self.reject(task, f'this task has no "{key}"; add it')
        if not 3 <= len(fields) <= 5:
            self.reject(
                task,
                f"a task must have 3 to 5 keys (command, slot, count, and distribution or "
                f"attributes), not {len(fields)}",
            )
        command = _value(fields, "command")
        if command is not None and not isinstance(command, Sequence):
            self.reject(command, f"command must be a list of strings, not {type_name(command)}")
        elif isinstance(command, Sequence):
            for arg in command.items:
                if read.as_string(arg) is None:
                    self.reject(arg, f"a command argument must be a string, not {type_name(arg)}")
        self.scalars(fields, ("slot", "distribution"), "the task's {}")
        if "count" in fields:
            self.task_count(fields["count"][1])
        if "attributes" in fields:
            self.task_attributes(fields["attributes"][1])

    def task_count(self, count: Node) -> None:
        if not isinstance(count, Mapping):
            self.reject(
                count, f"a task count must be a mapping such as per_slot: 1, not {type_name(count)}"
            )
        elif len(_fields(count)) != 1:
            self.reject(count, "a task count must have exactly one entry, such as per_slot: 1")
        elif read.as_string(count.pairs[-1][1]) is None:
            self.reject(
                count.pairs[-1][0],
                "a task count is read as a single value: per_resource (a mapping) is not "
                "supported; use per_slot or total",
            )

    def task_attributes(self, attrs: Node) -> None:
        if not isinstance(attrs, Mapping):
            self.reject(attrs, f"a task's attributes must be a mapping, not {type_name(attrs)}")
            return
        for name, (_, value) in _fields(attrs).items():
            if read.as_string(value) is None:
                where = " (set the environment in attributes.system.environment)"
                self.reject(
                    value,
                    f"each task attribute is read as a single value; {name} is "
                    f"{type_name(value)}{where if name == 'environment' else ''}",
                )

    # ----------------------------------------------------------------- attributes
    def attributes(self, attributes: Node) -> None:
        if isinstance(attributes, Scalar) and attributes.value is None:
            return
        if not isinstance(attributes, Mapping):
            self.reject(attributes, f"attributes must be a mapping, not {type_name(attributes)}")
            return
        for name, (knode, value) in _fields(attributes).items():
            if name == "system":
                self.system(value)
            elif name != "user":
                self.reject(
                    knode,
                    f"unknown key {read.shown(name)} in attributes (fluxion reads system and user)",
                )

    def system(self, system: Node) -> None:
        if isinstance(system, Sequence) and system.items:
            self.reject(system, "attributes.system must be a mapping, not a list")
        if not isinstance(system, Mapping):
            return  # a scalar or null: nothing in it is read
        fields = _fields(system)
        if "duration" in fields:
            duration = fields["duration"][1]
            if read.as_double(read.text(duration)) is None:
                self.reject(
                    duration, f"duration must be a number of seconds, not {_shown(duration)}"
                )
        for key in ("cwd", "queue"):
            node = _value(fields, key)
            if node is not None and read.as_string(node) is None:
                self.reject(node, f"{key} must be a string, not {type_name(node)}")
        env = _value(fields, "environment")
        if isinstance(env, Sequence) and env.items:
            self.reject(env, "environment must be a mapping of names to values, not a list")
        elif isinstance(env, Mapping):
            for name, (_, value) in _fields(env).items():
                if read.as_string(value) is None:
                    self.reject(
                        value, f"the value of {name} must be a string, not {type_name(value)}"
                    )
        if "constraints" in fields:
            self.constraint(fields["constraints"][1])

    # ---------------------------------------------------------------- constraints
    def constraint(self, node: Node) -> None:
        if not isinstance(node, Mapping):
            self.reject(
                node,
                f"a constraint must be a mapping such as {{properties: [ssd]}}, not {type_name(node)}",
            )
            return
        entries = list(_fields(node).items())
        for _, (knode, _) in entries[1:]:
            self.reject(
                knode,
                "a constraint mapping holds one operator; combine several with and: [{...}, {...}]",
            )
        for op, (knode, values) in entries:
            if not isinstance(values, Sequence):
                self.reject(values, f"the {op} operator takes a list, not {type_name(values)}")
            elif op == "properties":
                for name in values.items:
                    self.property(name)
            elif op in ("hostlist", "ranks"):
                for item in values.items:
                    self.notation(op, item)
            elif op in ("and", "or", "not"):
                for sub in values.items:
                    self.constraint(sub)
            else:
                self.reject(
                    knode,
                    f"unknown constraint operator {read.shown(op)} (fluxion reads {', '.join(OPERATORS)})",
                )

    def property(self, name: Node) -> None:
        if not (isinstance(name, Scalar) and isinstance(name.value, str)):
            self.reject(name, f"a property name must be a string, not {type_name(name)}")
            return
        v = name.value
        bad = [c for c in (v[1:] if v.startswith("^") else v) if c in BAD_PROPERTY]
        if bad:
            self.reject(
                name,
                f"{read.shown(v)} is an invalid property name: {bad[0]!r} is not allowed in it "
                "(a leading ^ negates; combine properties with and/or/not)",
            )

    def notation(self, op: str, item: Node) -> None:
        s = read.as_string(item)
        what = "hostlist" if op == "hostlist" else "idset"
        if s is None:
            self.reject(item, f"a {what} must be a string, not {type_name(item)}")
            return
        why = read.hostlist_problem(s) if op == "hostlist" else read.idset_problem(s)
        if why:
            self.reject(item, f"invalid {what} {read.shown(s)}: {why}")


def _shown(node: Node | None) -> str:
    s = read.text(node)
    return type_name(node) if s is None else read.shown(s)


def _unread(key: str, value: Node) -> str:
    if key == "operator":
        return f"operator must be one character, '+', '*' or '^', not {_shown(value)}"
    if key == "operand":
        return f"operand must be an integer (32 bits), not {_shown(value)}"
    return f"{key} must be an integer from 0 to {read.UINT_MAX}, not {_shown(value)}"
