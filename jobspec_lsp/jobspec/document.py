"""Parse jobspec text (YAML or JSON) into a positioned, immutable tree: the entry.

The analysis path uses libyaml (PyYAML's C loader): it is an order of magnitude faster
than a pure-Python round-trip parser, and it is what Flux itself uses, so scalars resolve
exactly as Flux reads them (YAML 1.1: ``yes`` is true, ``0755`` is 493, ``1_000`` is
1000, ``3600.`` a float). The formatter (``fmt``) and the conversions edit the text
itself, from the same events' positions, so comments and spellings survive.

Every node records the code-point offsets of its source text. Problems the reading finds
(syntax, duplicate keys, several documents, unsafe tags, alias bombs, YAML 1.1/1.2 traps)
become JS9xx diagnostics; parsing never raises. The reading, bottom to top:

- :mod:`.problems`: the JS9xx rules and the reading's limits;
- :mod:`.yamlvalues`: what a scalar's text is worth to Flux (YAML 1.1) and to YAML 1.2;
- :mod:`.jsonreading`: JSON text held to Python's JSON reader, JSON scalars' values;
- :mod:`.yamlerrors`: what libyaml refuses, said on the character to change;
- :mod:`.building`: the nodes made from events (scalars, tags, mappings);
- :mod:`.yamlevents`: the event reader, which builds the tree of a whole text;
- :mod:`.streaming`: a document too large for a tree, read one event at a time.

The names other modules have imported from here stay importable from here.
"""

from __future__ import annotations

import re

import yaml

from jobspec_lsp.jobspec.problems import MAX_CHARS, MAX_DEPTH, NOT_TEXT, unread
from jobspec_lsp.jobspec.streaming import streamed, streamed_words
from jobspec_lsp.jobspec.tree import Document
from jobspec_lsp.jobspec.yamlevents import TreeReader
from jobspec_lsp.jobspec.yamlvalues import plain_is_string
from jobspec_lsp.text.pauses import no_gc_pauses
from jobspec_lsp.text.positions import LineIndex

# the entry, and the names other modules import from here (their homes: problems,
# streaming, yamlvalues)
__all__ = ["MAX_CHARS", "MAX_DEPTH", "parse", "parse_bytes", "plain_is_string", "streamed_words"]

# the loader parse() reads with: the C one is what Flux uses and what makes us fast (the
# pure one without libyaml); a test puts another in its place
_Loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# half of a UTF-16 surrogate pair: a text holding one has no UTF-8 form
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def parse(text: str, language: str = "yaml", max_chars: int = MAX_CHARS) -> Document:
    """Parse ``text``; never raises for any input. Above ``max_chars`` characters the
    document is not read into a tree: JS912 on its first line says so, and what reading its
    events one at a time finds (a syntax error, the top-level keys) is reported too."""
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte order mark is not content; editors do not show it either
    lines = LineIndex(text)
    if len(text) > max_chars:
        return streamed(text, lines, language, max_chars, _Loader)
    lone = LONE_SURROGATE.search(text)
    if lone is not None:  # no UTF-8 form: neither libyaml nor Flux can read the text
        message = (
            f"U+{ord(lone.group(0)):04X} is half of a UTF-16 surrogate pair, not a "
            "character: the text has no UTF-8 form and cannot be read"
        )
        return unread(text, lines, language, NOT_TEXT, message, lone.start(), lone.end())
    if len(text) < 50_000:  # small: the collector's pauses are nothing here
        return TreeReader(text, lines, language, _Loader).run()
    with no_gc_pauses():
        return TreeReader(text, lines, language, _Loader).run()


def parse_bytes(data: bytes, language: str = "yaml") -> Document:
    """Decode UTF-8 (reporting where it fails) and parse."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        bad = len(data[: exc.start].decode("utf-8", errors="replace"))
        message = (
            f"the file is not UTF-8 text: byte 0x{data[exc.start]:02x} "
            f"at offset {exc.start} cannot be decoded"
        )
        return unread(text, LineIndex(text), language, NOT_TEXT, message, bad, bad + 1)
    return parse(text, language)
