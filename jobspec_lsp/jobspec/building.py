"""The tree's nodes, made from libyaml's events one at a time: each scalar with the value
Flux reads (a JSON document's with JSON's), and the problems a value has (an unsupported
tag, a value with no JSON form, a YAML 1.1/1.2 ambiguity); each collection's tag; each
mapping's pairs (a duplicate key, YAML 1.1 merge keys). The event reader
(:mod:`jobspec_lsp.jobspec.yamlevents`) builds on this."""

from __future__ import annotations

import json
import math

from jobspec_lsp.diagnostics import Diagnostic, Severity
from jobspec_lsp.jobspec import jsonreading
from jobspec_lsp.jobspec.problems import (
    AMBIGUOUS_SCALAR,
    DUPLICATE_KEY,
    NOT_JSON_VALUE,
    SYNTAX,
    UNSAFE_TAG,
    E,
    W,
)
from jobspec_lsp.jobspec.tree import Mapping, Scalar, Sequence
from jobspec_lsp.jobspec.yamlvalues import (
    AMBIGUOUS_FIRST,
    BINARY,
    MERGE,
    NON_JSON_COLLECTION_TAGS,
    NULL,
    SAFE_COLLECTION_TAGS,
    SCALAR_CONSTRUCTORS,
    STR,
    TIMESTAMP,
    brief,
    construct,
    describe_value,
    is_json_less,
    json_scalar_text,
    resolve,
    same,
    short_tag,
    yaml12_value,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

    from jobspec_lsp.text.positions import LineIndex


class Frame:
    """A collection being built from libyaml events."""

    __slots__ = ("kind", "start", "tag", "flow", "items", "anchor", "size")

    def __init__(
        self, kind: str, start: int, tag: str | None, flow: bool, anchor: str | None
    ) -> None:
        self.kind = kind
        self.start = start
        self.tag = tag
        self.flow = flow
        self.items: list[Any] = []
        self.anchor = anchor
        self.size = 1


class NodeBuilder:
    """Makes the nodes of one text and collects the problems they have.

    Scalars resolve with PyYAML's own YAML 1.1 resolver tables and constructors, so
    values are exactly what Flux loads."""

    def __init__(self, text: str, lines: LineIndex, language: str):
        self.text = text
        self.lines = lines
        self.json = language == "json"
        self.problems: list[Diagnostic] = []
        self.count = 0  # the nodes written
        self.entangled = False  # an anchor, alias or merge key met, or a pair dropped

    def report(
        self,
        code: str,
        message: str,
        start: int,
        end: int,
        severity: Severity = E,
        data: dict[str, Any] | None = None,
    ) -> None:
        self.problems.append(Diagnostic(code, severity, message, start, max(end, start), data))

    # ----------------------------------------------------------------- scalars
    def scalar(self, ev: Any) -> Scalar:
        """The scalar of a ScalarEvent, its value as Flux reads it."""
        start, end = ev.start_mark.index, ev.end_mark.index
        raw, style, tag = ev.value, ev.style or None, ev.tag  # libyaml says '' for plain
        plain = ev.implicit[0]
        if tag is None or tag == "!":
            if self.json:
                return self._json_scalar(raw, style, start, end)
            if not plain:
                return Scalar(start, end, raw, style, STR)
            tag = resolve(raw)
            if tag == STR:
                if raw[:1] in AMBIGUOUS_FIRST:
                    self.ambiguity(start, end, raw, raw)
                return Scalar(start, end, raw, None, STR)
        elif tag == STR:
            return Scalar(start, end, raw, style, STR)
        if tag == NULL:
            value = None
        elif tag not in SCALAR_CONSTRUCTORS:
            return self._unconstructed(raw, style, tag, start, end)
        else:
            try:
                value = construct(tag, raw)
            except Exception as exc:  # noqa: BLE001 - a value that does not fit its explicit tag
                self._unfit(exc, raw, tag, start, end)
                return Scalar(start, end, raw, style, STR)
            if tag in (TIMESTAMP, BINARY):
                self._not_json(raw, tag, start, end)
        self._finite(value, raw, start, end)
        if plain and raw and ev.tag is None:
            self.ambiguity(start, end, raw, value)
        return Scalar(start, end, value, style, tag)

    def _json_scalar(self, raw: str, style: str | None, start: int, end: int) -> Scalar:
        """A scalar of a JSON document: its value as JSON reads it."""
        if style is None:
            value = jsonreading.plain_value(raw)
        else:
            value, found = jsonreading.string_value(self.text[start:end], raw, start)
            self.problems.extend(found)
        self._finite(value, raw, start, end)
        return Scalar(start, end, value, style, STR)

    def _unconstructed(self, raw: str, style: str | None, tag: str, start: int, end: int) -> Scalar:
        """A scalar whose tag Flux constructs no value for: a merge key (``<<``), or a
        tag the safe loader refuses."""
        if tag == MERGE:
            self.entangled = True
            return Scalar(start, end, "<<", style, tag)
        self.report(
            UNSAFE_TAG,
            f"the tag {short_tag(tag)} is not supported by Flux's safe YAML loader; remove it",
            start,
            self._tag_end(start),
        )
        return Scalar(start, end, raw, style, tag)

    def _unfit(self, exc: Exception, raw: str, tag: str, start: int, end: int) -> None:
        """JS906 for a text its tag's constructor refuses."""
        self.report(
            UNSAFE_TAG,
            f"{brief(raw)} has more digits than Python (Flux's YAML reader) reads as a "
            "number (4,300); write a smaller number, or quote it to keep a string"
            if "Exceeds the limit" in str(exc)
            else f"{brief(raw)} cannot be read as {short_tag(tag)}: {str(exc)[:160]}",
            start,
            end,
        )

    def _not_json(self, raw: str, tag: str, start: int, end: int) -> None:
        """JS910 for a date or binary data, which have no JSON form."""
        what = "a date" if tag == TIMESTAMP else "binary data"
        fix = json.dumps(raw) if tag == TIMESTAMP else None
        self.report(
            NOT_JSON_VALUE,
            f"YAML 1.1 reads {raw!r} as {what}, which Flux cannot "
            "encode as JSON; quote it to keep it a string",
            start,
            end,
            data={"replacement": fix} if fix else None,
        )

    def _finite(self, value: Any, raw: str, start: int, end: int) -> None:
        if isinstance(value, float) and not math.isfinite(value):
            self.report(
                NOT_JSON_VALUE,
                f"{raw!r} is {'NaN' if value != value else 'infinite'}, "
                "which has no JSON form, so Flux cannot submit it; "
                "write a finite number",
                start,
                end,
            )

    def ambiguity(self, start: int, end: int, raw: str, value: Any) -> None:
        """JS905 when a plain scalar is one value to Flux and another to YAML 1.2 tools."""
        v12 = yaml12_value(raw)
        if same(v12, value):
            return
        if is_json_less(value):
            return  # reported as JS910
        fix = json_scalar_text(value)
        advice = f"write {fix} to keep what Flux reads"
        alternatives = [fix]
        if not isinstance(value, str):
            advice += f", or {json.dumps(raw)} for the string"
            alternatives.append(json.dumps(raw))
        self.report(
            AMBIGUOUS_SCALAR,
            f"{raw!r} is {describe_value(value)} to Flux (YAML 1.1) but "
            f"{describe_value(v12)} to YAML 1.2 tools; {advice}",
            start,
            end,
            severity=W,
            data={"replacement": fix, "alternatives": alternatives},
        )

    # ----------------------------------------------------------------- tags
    def check_collection_tag(self, tag: str | None, expected: str, start: int) -> None:
        if tag == expected:
            return
        if tag in NON_JSON_COLLECTION_TAGS:
            code = NOT_JSON_VALUE
            message = f"the tag {short_tag(tag)} makes a value with no JSON form; remove the tag"
        elif tag in SAFE_COLLECTION_TAGS:
            code, message = UNSAFE_TAG, f"the tag {short_tag(tag)} does not fit this value"
        else:
            code = UNSAFE_TAG
            message = (
                f"the tag {short_tag(tag or '')} is not supported by Flux's safe YAML loader; "
                "remove it"
            )
        self.report(code, message, start, self._tag_end(start))

    def _tag_end(self, start: int) -> int:
        text = self.text
        end = start
        while end < len(text) and not text[end].isspace():
            end += 1
        return max(end, start + 1)

    # ----------------------------------------------------------------- mappings
    def mapping(self, frame: Frame, end: int) -> Mapping:
        """The mapping of a finished frame: its pairs in order, a repeated key's last value
        kept (as PyYAML does) and reported, merge keys applied."""
        items = frame.items
        pairs: list[Any] = []
        index: dict[Any, int] = {}
        merged: list[Any] = []
        for i in range(0, len(items) - 1, 2):
            k, v = items[i], items[i + 1]
            if isinstance(k, Scalar) and k.tag == MERGE and not self.json:
                merged.append(v)
                continue
            if not isinstance(k, Scalar):
                self.entangled = True  # the pair is dropped: counts no longer follow pairs
                self.report(
                    NOT_JSON_VALUE,
                    f"a mapping key must be a plain value, not a {k.kind}; Flux cannot use it",
                    k.start,
                    k.end,
                )
                continue
            prev = index.get(k.value)
            if prev is not None:
                self._duplicate(k, pairs[prev][0])
                pairs[prev] = (k, v)
                continue
            index[k.value] = len(pairs)
            pairs.append((k, v))
        if merged:
            pairs, index = self._merge(merged, pairs, index)
        return Mapping(frame.start, end, pairs, index, frame.flow)

    def _duplicate(self, key: Scalar, first: Scalar) -> None:
        """JS902 on a key already set by ``first``."""
        line = self.lines.position(first.start).line
        self.report(
            DUPLICATE_KEY,
            f"duplicate key {self.text[key.start : key.end]!s}: it is already set on line "
            f"{line + 1}; Flux would silently keep only this last value",
            key.start,
            key.end,
            data={"first": [first.start, first.end]},
        )

    def _merge(self, merged: list[Any], pairs: list[Any], index: dict[Any, int]) -> Any:
        """Apply YAML 1.1 merge keys the way PyYAML's safe loader does."""
        sources = self._merge_sources(merged)
        # PyYAML: within a list, earlier mappings win; explicit keys win over all.
        out_pairs: list[Any] = []
        out_index: dict[Any, int] = {}
        for src in sources:
            for k, v in src.pairs:
                if k.value in index or k.value in out_index:
                    continue
                out_index[k.value] = len(out_pairs)
                out_pairs.append((k, v))
        for k, v in pairs:
            out_index[k.value] = len(out_pairs)
            out_pairs.append((k, v))
        return out_pairs, out_index

    def _merge_sources(self, merged: list[Any]) -> list[Mapping]:
        """The mappings the merge keys' values name, in order; what is not one is reported."""
        sources = []
        for m in merged:
            if isinstance(m, Mapping):
                sources.append(m)
            elif isinstance(m, Sequence):
                for item in m.items:
                    if isinstance(item, Mapping):
                        sources.append(item)
                    else:
                        self.report(
                            SYNTAX,
                            "a merge key (<<) list may only hold mappings",
                            item.start,
                            item.end,
                        )
            else:
                self.report(
                    SYNTAX, "a merge key (<<) needs a mapping or a list of mappings", m.start, m.end
                )
        return sources
