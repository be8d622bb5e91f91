"""The option values written in a notation of their own, read by the notations' parsers:
``--requires`` (an RFC 35 constraint query, compiled to RFC 31) and ``--resources-shape``
(an RFC 46 shape, as flux-core's shape parser reads it).

Reached from :mod:`jobspec_lsp.fluxcli.values` (its declared table of readers) the first
time such a value is given: the constraint grammar loads lark."""

from __future__ import annotations

import copy
import functools

from jobspec_lsp.fluxcli.values import Limit, Refused
from jobspec_lsp.notations import constraint, shape

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


def parse_requires(expr: str) -> dict[str, Any]:
    """A ``--requires`` constraint query (RFC 35) -> its RFC 31 object, as
    :mod:`jobspec_lsp.notations.constraint` compiles it; :class:`Refused` with the column
    when it has none. (A fresh copy each time: the parse is cached by the query.)"""
    return copy.deepcopy(_parse_requires(expr))


@functools.lru_cache(maxsize=1024)
def _parse_requires(expr: str) -> dict[str, Any]:
    try:
        return constraint.parse(expr)
    except constraint.ConstraintError as err:
        raise Refused(
            f"--requires {expr!r}: {err.message}"
            + ("" if "column" in err.message else f" (at column {err.start + 1})")
        ) from None


def requires_problem(value: str) -> str | None:
    """Why Flux refuses ``--requires=value`` (a :class:`Limit` where the query nests
    deeper than this tool reads), or None."""
    try:
        parse_requires(value)
    except Refused as err:
        return Limit(err) if "too deeply" in str(err) else str(err)
    return None


def shape_problem(value: str) -> str | None:
    """Why Flux refuses ``--resources-shape=value`` (a :class:`Limit` where the shape
    nests deeper than this tool reads), or None."""
    try:
        shape.expand(value, as_flux=True)
    except shape.ShapeError as err:
        why = f"--resources-shape: {err.message}"
        return Limit(why) if "levels" in err.message else why
    return None


def shape_resources(text: str, label: str) -> list[dict[str, Any]]:
    """The resources ``--resources-shape=text`` gives whole, as Flux's shape plugin
    expands them (the lone slot labelled ``label``); :class:`Refused` with the column
    for a shape Flux refuses."""
    try:
        resources: list[dict[str, Any]] = shape.expand(text, label=label, as_flux=True)
    except shape.ShapeError as err:
        raise Refused(
            f"--resources-shape {text!r}: {err.message} (at column {err.start + 1})"
        ) from None
    return resources
