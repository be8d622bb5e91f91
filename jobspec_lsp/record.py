"""Value objects for the classes every command loads, without :mod:`dataclasses`.

The rules, diagnostics, positions, Flux's option table, the document kinds and the
project configuration were dataclasses. Making a dataclass writes its methods out as
source and compiles them at import: about half a millisecond a class, and loading
:mod:`dataclasses` loads inspect, ast and dis as well (6 ms). Together that was a
quarter of what `jobspec check` took to start (issue 26, docs/performance.md).

These classes name their fields in ``__slots__`` (in order, base class first) and write
their own ``__init__``; the bases give them what the decorator did:

- :class:`Record`: equal to an object of the very same class whose compared fields are
  equal (``_uncompared`` leaves some out); a repr naming the fields (``_unshown``
  leaves some out); unhashable, like a mutable dataclass.
- :class:`Frozen`: a :class:`Record` whose fields are set once, in ``__init__`` (with
  :func:`object.__setattr__`, as a frozen dataclass does); hashable by its compared
  fields; assigning or deleting a field afterwards raises :class:`FrozenError`.

Pure: no imports at all.
"""

from __future__ import annotations


class FrozenError(AttributeError):
    """A field of a :class:`Frozen` value was assigned or deleted after ``__init__``."""


class Record:
    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _compared: tuple[str, ...] = ()
    _shown: tuple[str, ...] = ()
    _uncompared: tuple[str, ...] = ()
    _unshown: tuple[str, ...] = ()

    def __init_subclass__(cls, **kw: object) -> None:
        super().__init_subclass__(**kw)
        fields: list[str] = []
        for klass in reversed(cls.__mro__):
            slots = klass.__dict__.get("__slots__", ())
            names = [slots] if isinstance(slots, str) else slots
            fields.extend(n for n in names if not n.startswith("__"))  # __weakref__
        cls._fields = tuple(fields)
        cls._compared = tuple(f for f in fields if f not in cls._uncompared)
        cls._shown = tuple(f for f in fields if f not in cls._unshown)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._compared)

    __hash__ = None  # type: ignore[assignment]  # mutable: like a dataclass, not hashable

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._shown)
        return f"{self.__class__.__qualname__}({shown})"

    def __reduce__(self) -> tuple:
        # copy and pickle: the fields set again as __init__ set them
        return _rebuilt, (self.__class__, tuple(getattr(self, f) for f in self._fields))


class Frozen(Record):
    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(getattr(self, f) for f in self._compared))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenError(f"cannot assign to field {name!r} of a {self.__class__.__name__}")

    def __delattr__(self, name: str) -> None:
        raise FrozenError(f"cannot delete field {name!r} of a {self.__class__.__name__}")


def _rebuilt(cls: type, values: tuple) -> Record:
    obj: Record = object.__new__(cls)
    for name, value in zip(cls._fields, values):  # type: ignore[attr-defined]
        object.__setattr__(obj, name, value)
    return obj


def replaced(obj: Record, **changes: object) -> Record:
    """A copy of ``obj`` with ``changes`` to its fields (dataclasses.replace)."""
    cls = obj.__class__
    unknown = set(changes) - set(cls._fields)
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    return _rebuilt(cls, tuple(changes.get(f, getattr(obj, f)) for f in cls._fields))
