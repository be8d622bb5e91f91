"""The declared boundaries: where a command, a document kind or an optional feature loads
the module that serves it, named in a table rather than imported inside a function.

A table entry is a string ``"jobspec_lsp.room.module:name"`` written where the table is
declared (the CLI's command table, the kinds' readers, the formatter, the server); `load`
imports the module the first time the entry is used and returns the named object. What a
module needs at every call it imports at its top; what only some commands need sits behind
one of these entries, so a script's `check` loads neither the YAML reader, nor lark, nor
the editor features (tests/test_startup.py holds that)."""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

_LOADED: dict[str, Any] = {}


def load(entry: str) -> Any:
    """The object an entry names (``module:attribute``, or a module alone)."""
    found = _LOADED.get(entry)
    if found is None:
        module, _, attribute = entry.partition(":")
        found = importlib.import_module(module)
        for part in attribute.split(".") if attribute else ():
            found = getattr(found, part)
        _LOADED[entry] = found
    return found


def attribute(table: dict[str, str], space: dict[str, Any], name: str) -> Any:
    """A module's ``__getattr__`` over its declared ``table``: the object the entry for
    ``name`` names, loaded on first use and kept in the module's namespace ``space`` (its
    globals()) as its own attribute from then on."""
    entry = table.get(name)
    if entry is None:
        raise AttributeError(f"module {space['__name__']!r} has no attribute {name!r}")
    found = space[name] = load(entry)
    return found
