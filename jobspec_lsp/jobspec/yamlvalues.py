"""What a scalar's text is worth: to Flux, which reads YAML 1.1 with PyYAML's own resolver
tables and constructors (``yes`` is true, ``0755`` is 493, ``1_000`` is 1000, ``3600.``
a float), and to YAML 1.2 tools, which read the same plain text otherwise; and how a
value is said in a message or written so that every reader agrees."""

from __future__ import annotations

import datetime
import json
import math
import re

import yaml
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

INT, FLOAT, BOOL, NULL, STR = (
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:str",
)
MAP, SEQ, MERGE = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:merge"
TIMESTAMP, BINARY = "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary"
SAFE_COLLECTION_TAGS = {MAP, SEQ}
NON_JSON_COLLECTION_TAGS = {
    "tag:yaml.org,2002:set",
    "tag:yaml.org,2002:omap",
    "tag:yaml.org,2002:pairs",
}

_constructor = SafeConstructor()
_IMPLICIT = Resolver.yaml_implicit_resolvers  # PyYAML's own YAML 1.1 tables

# the tags whose values Flux's safe loader constructs (besides strings and null)
SCALAR_CONSTRUCTORS = {
    INT: SafeConstructor.construct_yaml_int,
    FLOAT: SafeConstructor.construct_yaml_float,
    BOOL: SafeConstructor.construct_yaml_bool,
    TIMESTAMP: SafeConstructor.construct_yaml_timestamp,
    BINARY: SafeConstructor.construct_yaml_binary,
}


def resolve(value: str) -> str:
    """The tag PyYAML's safe loader gives a plain scalar (YAML 1.1 rules)."""
    for tag, regexp in _IMPLICIT.get(value[:1] if value else "", ()):
        if regexp.match(value):
            return str(tag)
    return STR


def plain_is_string(value: str) -> bool:
    """Whether Flux reads ``value``, written plain (unquoted), as a string."""
    return resolve(value) == STR


def construct(tag: str, raw: str) -> Any:
    """The value Flux's safe loader makes of ``raw`` under ``tag`` (one of
    :data:`SCALAR_CONSTRUCTORS`); raises when the text does not fit the tag."""
    return SCALAR_CONSTRUCTORS[tag](_constructor, yaml.ScalarNode(tag, raw))


# YAML 1.2 core schema resolution, to find plain scalars whose meaning differs.
_Y12_NULL = re.compile(r"(?:~|null|Null|NULL|)\Z")
_Y12_BOOL = {
    "true": True,
    "True": True,
    "TRUE": True,
    "false": False,
    "False": False,
    "FALSE": False,
}
_Y12_INT = re.compile(r"[-+]?[0-9]+\Z")
_Y12_OCT = re.compile(r"0o[0-7]+\Z")
_Y12_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_Y12_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_Y12_INF = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z")
_Y12_NAN = re.compile(r"\.(?:nan|NaN|NAN)\Z")
# First characters of plain scalars that YAML 1.1 and 1.2 might read differently.
AMBIGUOUS_FIRST = set("yYnNoOtTfF0123456789+-.~")


def yaml12_value(text: str) -> Any:
    """The value of a plain scalar under the YAML 1.2 core schema."""
    if _Y12_NULL.match(text):
        return None
    if text in _Y12_BOOL:
        return _Y12_BOOL[text]
    if _Y12_INT.match(text):
        return int(text)
    if _Y12_OCT.match(text):
        return int(text[2:], 8)
    if _Y12_HEX.match(text):
        return int(text[2:], 16)
    if _Y12_FLOAT.match(text):
        return float(text)
    if _Y12_INF.match(text):
        return -math.inf if text.startswith("-") else math.inf
    if _Y12_NAN.match(text):
        return math.nan
    return text


def same(a: Any, b: Any) -> bool:
    """Whether two readings give the same value (of the same type; NaN is NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


def is_json_less(value: Any) -> bool:
    """Whether ``value`` is one YAML 1.1 makes and JSON has no form for (a date, bytes)."""
    return isinstance(value, (datetime.date, bytes))


def describe_value(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return f"the boolean {str(v).lower()}"
    if isinstance(v, int):
        return f"the integer {v}"
    if isinstance(v, float):
        return f"the number {v!r}"
    if isinstance(v, datetime.date):
        return f"the date {v.isoformat()}"
    if isinstance(v, str):
        return f"the string {json.dumps(v)}"
    return f"a {type(v).__name__}"


def json_scalar_text(v: Any) -> str:
    """How a value is written so every YAML version and JSON read it the same."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if isinstance(v, float) and not math.isfinite(v):
            return json.dumps(str(v))
        return repr(v)
    return json.dumps(str(v))


def brief(s: str, limit: int = 40) -> str:
    """``repr(s)``, its middle left out when it is long (a 4,400-digit number, say)."""
    text = repr(s)
    return (
        text
        if len(text) <= limit
        else f"{text[: limit // 2]}…{text[-(limit // 4) :]} ({len(s):,} characters)"
    )


def short_tag(tag: str) -> str:
    """A tag as it is written: ``!!int`` for YAML's own, any other as it is."""
    if tag.startswith("tag:yaml.org,2002:"):
        return "!!" + tag[len("tag:yaml.org,2002:") :]
    return tag
