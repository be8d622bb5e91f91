"""A document too large for a tree (JS912), read one YAML event at a time, none kept:
what its top level holds (its keys, JS101 and JS102; where each section's value lies),
a syntax error at its place, which sections are small enough to be read alone
(``rules.streamed``), and what JS912 says is checked and what is skipped. Memory stays
bounded whatever the size; libyaml's reading is the cost (about 75 ns per character)."""

from __future__ import annotations

import yaml
from yaml import events

from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.jobspec.problems import SYNTAX, TOO_LARGE, E, unread
from jobspec_lsp.jobspec.yamlerrors import multiple_documents, syntax_error

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

    from jobspec_lsp.jobspec.tree import Document
    from jobspec_lsp.text.positions import LineIndex

_STREAM_READS = ("resources", "tasks")  # a streamed document's sections read alone
_TOP_KEYS = ("version", "resources", "tasks", "attributes")


def streamed(text: str, lines: LineIndex, language: str, max_chars: int, loader: type) -> Document:
    """The document of a text above ``max_chars`` characters: no tree; JS912 on its first
    line says so, and what reading its events one at a time finds is reported too. Its
    ``derived["streamed"]`` says where each top-level value lies and which are read alone."""
    top = _TopLevel()
    found = _read(top, text, lines, loader)
    sections = _sections_read_alone(top.spans, found, max_chars, top.odd_keys)
    message = f"{len(text):,} characters: {streamed_words(top.spans, sections, max_chars)}"
    end = len(lines.line_text(0)) or min(len(text), 1)
    doc = unread(text, lines, language, TOO_LARGE, message, 0, end)
    doc.problems.extend(found)
    doc.derived["streamed"] = {
        "spans": top.spans,
        "read": sections,
        "flow": top.flow,
        "limit": max_chars,
    }
    return doc


class _TopLevel:
    """The top level of a document, followed one event at a time: its keys as written,
    where each key's value lies, whether it is a mapping and a flow (JSON) one."""

    def __init__(self) -> None:
        self.depth = 0
        self.kind: type | None = None  # the top-level node's start event class
        self.flow = False  # the top level is a flow (JSON) collection
        self.at_key = True  # the next top-level node completed is a key (else a value)
        self.key: str | None = None  # the key of the value being read (None: not a scalar)
        self.start = 0  # where the top-level node being read starts
        self.keys: list[tuple[str, int, int]] = []
        self.spans: dict[Any, tuple[int, int]] = {}  # each top-level key's value
        self.odd_keys = False  # a top-level key that is an alias, a collection or a merge

    def take(self, ev: Any, cls: type) -> None:
        """Follow one event (not a document's start)."""
        if cls is events.MappingStartEvent or cls is events.SequenceStartEvent:
            if self.depth == 0:
                self.kind = cls
                self.flow = bool(ev.flow_style)
            elif self.depth == 1:
                self.start = ev.start_mark.index
            self.depth += 1
            return
        if cls is events.MappingEndEvent or cls is events.SequenceEndEvent:
            self.depth -= 1
            if self.depth != 1:
                return  # (a collection at the top level ends here)
        elif cls is events.ScalarEvent or cls is events.AliasEvent:
            if self.depth != 1:
                return
            self.start = ev.start_mark.index
        else:
            return
        if self.kind is events.MappingStartEvent:
            self._completed(ev, cls)

    def _completed(self, ev: Any, cls: type) -> None:
        """A node of the top-level mapping is complete: a key, or the value of the last."""
        if self.at_key:
            key = ev.value if cls is events.ScalarEvent else None
            if key is None or key == "<<":
                self.odd_keys = True  # an alias, a collection or a merge as a key
                key = None
            else:
                self.keys.append((key, self.start, ev.end_mark.index))
            self.key = key
        elif self.key is not None:
            self.spans[self.key] = (self.start, ev.end_mark.index)
        self.at_key = not self.at_key


def _read(top: _TopLevel, text: str, lines: LineIndex, loader: type) -> list[Diagnostic]:
    """Follow the text's events with ``top``: a YAML syntax error (JS901, at its place),
    a second document (JS903: the jobspec is the first), then the top-level keys --
    missing (JS101) or unknown (JS102) ones."""
    documents = 0
    reader = loader(text)
    try:
        while reader.check_event():
            ev = reader.get_event()
            cls = type(ev)
            if cls is events.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    return [multiple_documents(text, lines, ev.start_mark.index)] + (
                        _key_problems(top, lines)
                    )
                continue
            top.take(ev, cls)
    except yaml.MarkedYAMLError as exc:
        return [syntax_error(exc, text, lines)]
    except yaml.YAMLError as exc:  # pragma: no cover - unmarked errors
        return [Diagnostic(SYNTAX, E, f"invalid YAML: {exc}", 0, 0)]
    finally:
        reader.dispose()
    return _key_problems(top, lines)


def _key_problems(top: _TopLevel, lines: LineIndex) -> list[Diagnostic]:
    """JS102 for each unknown top-level key, JS101 for the missing ones."""
    if top.kind is not events.MappingStartEvent:
        return []
    out = [
        Diagnostic(
            "JS102",
            E,
            f"unknown key {name!r} in the jobspec (allowed: {', '.join(_TOP_KEYS)})",
            start,
            max(end, start),
        )
        for name, start, end in top.keys
        if name not in _TOP_KEYS
    ]
    written = {name for name, _, _ in top.keys}
    missing = [k for k in _TOP_KEYS if k not in written]
    if missing and not top.odd_keys:  # (a key that is not a scalar may be any of them)
        message = f"missing required top-level key{'s' if len(missing) > 1 else ''}: " + (
            ", ".join(missing)
        )
        out.append(Diagnostic("JS101", E, message, 0, len(lines.line_text(0))))
    return out


def _sections_read_alone(
    spans: dict[Any, tuple[int, int]], found: list[Diagnostic], max_chars: int, odd: bool
) -> tuple[str, ...]:
    """The sections of a document too large for a tree that are read into one alone (by
    ``rules.streamed``): ``resources``, and ``tasks`` with it, each when it holds at most
    a quarter of ``max_chars`` characters; none after a syntax error, or when a top-level
    key is not a scalar (``odd``: where each value is cannot be said by its key)."""
    if odd or any(d.code == SYNTAX for d in found):
        return ()
    small = [k for k in _STREAM_READS if k in spans and _size(spans[k]) <= max_chars // 4]
    return tuple(small) if "resources" in small else ()


def _size(span: tuple[int, int]) -> int:
    return span[1] - span[0]


def streamed_words(
    spans: dict[Any, tuple[int, int]], read: tuple[str, ...], limit: int, why: str = ""
) -> str:
    """What JS912 says a streamed document gets: what is checked, what is skipped
    (``why``: what stopped the sections being read)."""
    said = (
        f"larger than the {limit:,} read into a tree; read in streaming mode instead: "
        "its YAML syntax and its top-level keys are checked"
    )
    if read:
        said += f", and {' and '.join(read)} read alone (their structure, counts, labels)"
    skipped = [
        f"{k} ({_size(spans[k]):,} characters)"
        for k in _STREAM_READS
        if k in spans and k not in read
    ]
    if "attributes" in spans:
        skipped.append("attributes")
    skipped.append("V1's rules and the --target checks")
    return f"{said}; skipped: {', '.join(skipped)}" + (f"; {why}" if why else "")
