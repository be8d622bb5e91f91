"""Parse jobspec text (YAML or JSON) into a positioned, immutable tree.

The analysis path uses libyaml (PyYAML's C composer): it is an order of
magnitude faster than a pure-Python round-trip parser, and it is what Flux
itself uses, so scalars resolve exactly as Flux reads them (YAML 1.1:
``yes`` is true, ``0755`` is 493, ``1_000`` is 1000, ``3600.`` a float).
The formatter (``layout.py``) and the conversions edit the text itself, from
the same events' positions, so comments and spellings survive.

Every node records the code-point offsets of its source text.  Problems the
parser finds (syntax, duplicate keys, several documents, unsafe tags, alias
bombs, YAML 1.1/1.2 traps) become JS9xx diagnostics; parsing never raises.
"""

from __future__ import annotations

import datetime
import json
import math
import re

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from yaml.resolver import Resolver

from jobspec_lsp.diagnostics import Diagnostic, Family, Severity
from jobspec_lsp.jobspec.json_errors import describe
from jobspec_lsp.jobspec.tree import (
    Document,
    Mapping,
    Node,
    Scalar,
    Sequence,
)
from jobspec_lsp.notations.formats import python_int
from jobspec_lsp.text.brackets import open_brackets
from jobspec_lsp.text.pauses import no_gc_pauses
from jobspec_lsp.text.positions import LineIndex

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

# the C loader is what Flux uses and what makes us fast (the pure one without libyaml)
_Loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

E, W = Severity.ERROR, Severity.WARNING

family = Family(good="version: 1\n")
SYNTAX = family.error(
    """JS901 yaml-syntax: The text is not valid YAML (or JSON).

    Flux cannot read the file at all; the job is rejected at submission.""",
    bad="resources: [ {type: node, count: 1}\n",
    good="resources: [ {type: node, count: 1} ]\n",
)
DUPLICATE_KEY = family.error(
    """JS902 duplicate-key: A mapping has the same key twice.

    PyYAML (used by Flux) silently keeps the last value, so the first one is lost without any
    warning. JSON readers differ in which one they keep.""",
    bad="version: 1\nversion: 2\n",
)
MULTIPLE_DOCUMENTS = family.error(
    """JS903 multiple-documents: The file holds more than one YAML document.

    A jobspec is exactly one document; Flux's reader refuses a stream of several.""",
    bad="version: 1\n---\nversion: 1\n",
)
TAB_INDENT = family.error(
    """JS904 tab-indentation: A line is indented with a tab.

    YAML forbids tabs in indentation; the file does not parse.""",
    bad="attributes:\n\tsystem: {}\n",
    good="attributes:\n  system: {}\n",
)
AMBIGUOUS_SCALAR = family.warning(
    """JS905 yaml11-ambiguous: A plain scalar means one thing to Flux (YAML 1.1) and another to
    YAML 1.2 tools.

    Flux reads jobspec as YAML 1.1, where `yes`/`no`/`on`/`off` are booleans, `0755` is octal
    and `1_000` is a number. Editors, formatters and many libraries assume YAML 1.2 and read
    the same text differently, so the file means different things to different tools. Quote
    the value or write it unambiguously.""",
    bad="exclusive: yes\n",
    good="exclusive: true\n",
    fix="ambiguous",
    safety="cosmetic",
)
UNSAFE_TAG = family.error(
    """JS906 unsupported-tag: A YAML tag Flux's safe loader cannot construct.

    Flux reads jobspec with a safe loader: language-specific tags such as `!!python/object`
    are refused (and are never constructed here), and a value that does not fit its explicit
    tag fails to load.""",
    bad="version: !!python/object:os.system 1\n",
)
ALIAS_BOMB = family.error(
    """JS907 alias-expansion: Aliases expand the document far beyond its size, or refer to
    themselves.

    A few lines of anchors and aliases can expand to billions of nodes (an 'alias bomb'); a
    recursive alias never ends. The document is not analysed further.""",
    bad="a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: &d [*c, *c]\ne: &e [*d, *d]\nf: &f [*e, *e]\n"
    "g: &g [*f, *f]\nh: &h [*g, *g]\ni: &i [*h, *h]\nj: &j [*i, *i]\nk: &k [*j, *j]\n"
    "l: &l [*k, *k]\nm: &m [*l, *l]\nn: &n [*m, *m]\no: &o [*n, *n]\np: &p [*o, *o]\n"
    "q: &q [*p, *p]\nr: [*q, *q]\n",
    good="a: &a [x, x]\nb: [*a, *a]\n",
)
TOO_DEEP = family.error(
    """JS908 nesting-too-deep: The document is nested too deeply to analyse.

    No jobspec needs hundreds of levels of nesting; such input is refused rather than risking
    a crash.""",
    bad="[" * 300 + "]" * 300 + "\n",
    good="[[]]\n",
)
EMPTY_DOCUMENT = family.error(
    """JS909 empty-document: The file holds no jobspec.

    An empty file (or one with only comments) reads as null; Flux rejects it.""",
    bad="# nothing yet\n",
)
NOT_JSON_VALUE = family.error(
    """JS910 not-json-value: A value with no JSON form: a date, binary, a set, a non-text key,
    infinity or NaN.

    Flux turns jobspec into JSON. YAML 1.1 reads an unquoted `2024-01-31` as a date and
    `!!binary` as bytes, which have no JSON form, so submission fails: quote it. `.inf`,
    `.nan` (and a JSON number too large for a double, such as `1e400`) have no JSON form
    either: write a finite number.""",
    bad="attributes:\n  user:\n    start: 2024-01-31\n",
    good='attributes:\n  user:\n    start: "2024-01-31"\n',
    fix="replacement",
    safety="repair",
)
NOT_TEXT = family.error(
    """JS911 not-utf8-text: The file is not UTF-8 text.

    Jobspec is YAML or JSON text in UTF-8; binary data or another encoding cannot be read.""",
    bad="version: 1\nname: caf\xe9\n",
    good="version: 1\nname: caf\u00e9\n",
    encoding="latin-1",
)

MAX_CHARS = 16 * 1024 * 1024  # characters read into a tree; a bigger one is streamed (JS912)
TOO_LARGE = family.error(
    """JS912 document-too-large: The document is too large to analyse whole.

    Above 16 Mi characters a document is not read into a tree (the language server's memory
    and every editor request stay bounded). It is read in streaming mode instead, its YAML
    events one at a time and none kept: a syntax error (JS901) and the top-level keys
    (JS101, JS102) are still reported. Its `resources`, and its `tasks` with them, are then
    read alone when each holds at most a quarter of the limit (a huge jobspec is almost
    always huge in its attributes: environment, files): their structure, counts and labels
    are checked (JS1xx, JS2xx, JS3xx) at their places. What is not read -- the attributes, a
    section above its share, V1's rules and the `--target` checks -- is named in this
    diagnostic. A jobspec that large is almost always generated: check the generator's
    output in parts, or its template. (The examples here use a limit of 60 characters.)""",
    bad="version: 1\nresources: []\ntasks: []\nattributes:\n  system:\n    duration: 3600\n",
    max_chars=60,
)
MAX_DEPTH = 200
MAX_EXPANSION = 100_000  # nodes reachable through aliases beyond the source's own

_INT, _FLOAT, _BOOL, _NULL, _STR = (
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:str",
)
_MAP, _SEQ, _MERGE = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:merge"
_TIMESTAMP, _BINARY = "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary"
_SAFE_COLLECTION_TAGS = {_MAP, _SEQ}
_NON_JSON_COLLECTION_TAGS = {
    "tag:yaml.org,2002:set",
    "tag:yaml.org,2002:omap",
    "tag:yaml.org,2002:pairs",
}

_constructor = SafeConstructor()
_IMPLICIT = Resolver.yaml_implicit_resolvers  # PyYAML's own YAML 1.1 tables


def _resolve(value: str) -> str:
    """The tag PyYAML's safe loader gives a plain scalar (YAML 1.1 rules)."""
    for tag, regexp in _IMPLICIT.get(value[:1] if value else "", ()):
        if regexp.match(value):
            return str(tag)
    return _STR


def plain_is_string(value: str) -> bool:
    """Whether Flux reads ``value``, written plain (unquoted), as a string."""
    return _resolve(value) == _STR


_SCALAR_CONSTRUCTORS = {
    _INT: SafeConstructor.construct_yaml_int,
    _FLOAT: SafeConstructor.construct_yaml_float,
    _BOOL: SafeConstructor.construct_yaml_bool,
    _TIMESTAMP: SafeConstructor.construct_yaml_timestamp,
    _BINARY: SafeConstructor.construct_yaml_binary,
}


def parse(text: str, language: str = "yaml", max_chars: int = MAX_CHARS) -> Document:
    """Parse ``text``; never raises for any input. Above ``max_chars`` characters the
    document is not read into a tree: JS912 on its first line says so, and what reading its
    events one at a time finds (a syntax error, the top-level keys) is reported too."""
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte order mark is not content; editors do not show it either
    lines = LineIndex(text)
    if len(text) > max_chars:
        end = len(lines.line_text(0)) or min(len(text), 1)
        parser = _Parser(text, lines, language)
        found = parser.stream()
        sections = _sections_read_alone(parser.spans, found, max_chars, parser.odd_keys)
        message = f"{len(text):,} characters: {streamed_words(parser.spans, sections, max_chars)}"
        doc = _unread(text, lines, language, TOO_LARGE, message, 0, end)
        doc.problems.extend(found)
        doc.derived["streamed"] = {
            "spans": parser.spans,
            "read": sections,
            "flow": parser.flow_root,
            "limit": max_chars,
        }
        return doc
    lone = _LONE_SURROGATE.search(text)
    if lone is not None:  # no UTF-8 form: neither libyaml nor Flux can read the text
        message = (
            f"U+{ord(lone.group(0)):04X} is half of a UTF-16 surrogate pair, not a "
            "character: the text has no UTF-8 form and cannot be read"
        )
        return _unread(text, lines, language, NOT_TEXT, message, lone.start(), lone.end())
    if len(text) < 50_000:  # small: the collector's pauses are nothing here
        return _Parser(text, lines, language).run()
    with no_gc_pauses():
        return _Parser(text, lines, language).run()


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_STREAM_READS = ("resources", "tasks")  # a streamed document's sections read alone


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


def _unread(
    text: str, lines: LineIndex, language: str, code: str, message: str, start: int, end: int
) -> Document:
    """A document that is not parsed, with the one error that says why."""
    return Document(text, lines, None, [Diagnostic(code, E, message, start, end)], language)


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
        return _unread(text, LineIndex(text), language, NOT_TEXT, message, bad, bad + 1)
    return parse(text, language)


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
_AMBIGUOUS_FIRST = set("yYnNoOtTfF0123456789+-.~")


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


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


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


_DOC_MARKER = re.compile(r"^(?:---|\.\.\.)(?=\s|$)", re.M)
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?\Z")


class _Frame:
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


class _Parser:
    """Builds the tree from libyaml events with an explicit stack.

    Events rather than PyYAML's composer: the composer resolves every scalar
    through Python and recurses in C (deep input would overflow the stack);
    events are several times faster, and nesting depth is checked before it
    can hurt.  Scalars resolve with PyYAML's own YAML 1.1 resolver tables and
    constructors, so values are exactly what Flux loads.
    """

    def __init__(self, text: str, lines: LineIndex, language: str):
        self.text = text
        self.lines = lines
        self.json = language == "json"
        self.problems: list[Diagnostic] = []
        self.count = 0
        self.sizes: dict[int, int] = {}
        self.depth_base = 0  # levels above the text read (a block entry read alone: incremental)
        self.entangled = False  # an anchor, alias or merge key met, or a pair dropped
        self.spans: dict[Any, tuple[int, int]] = {}  # streamed: each top-level key's value
        self.flow_root = False  # streamed: the top level is a flow (JSON) mapping
        self.odd_keys = False  # streamed: a top-level key that is an alias or a collection

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

    # ----------------------------------------------------------------- driver
    def run(self) -> Document:
        if self.json and not self._check_json():
            return self._doc(None)
        try:
            root = self._build()
        except yaml.MarkedYAMLError as exc:
            if _library_depth_limit(exc):
                self._library_too_deep(exc)
            else:
                self._syntax_error(exc)
            return self._doc(None)
        except yaml.YAMLError as exc:  # pragma: no cover - unmarked errors
            self.report(SYNTAX, f"invalid YAML: {exc}", 0, 0)
            return self._doc(None)
        except _Abort:
            return self._doc(None)
        if root is None or (
            isinstance(root, Scalar)
            and root.value is None
            and root.style is None
            and root.tag == _NULL
        ):
            text = self.text
            self.report(
                EMPTY_DOCUMENT,
                "the file holds no jobspec (it is empty or only comments)",
                0,
                len(self.lines.line_text(0)) if text else 0,
            )
            return self._doc(None)
        return self._doc(root)

    def _build(self) -> Any:
        text = self.text
        if self.json and "\\u" in text:
            # libyaml refuses the \uD83D\uDE00 escapes JSON writes for characters beyond
            # U+FFFF: it reads a same-length stand-in, and JSON strings holding escapes
            # are decoded with JSON's own rules from the original text (scalar())
            text = _SURROGATE_ESCAPE.sub(r"\\u0020", text)
        loader = _Loader(text)
        try:
            return self._events(loader)
        finally:
            loader.dispose()

    def _events(self, loader: Any) -> Any:
        get = loader.get_event
        check = loader.check_event
        anchors: dict[str, Node] = {}
        open_anchors: set[str] = set()
        stack: list[_Frame] = []
        node: Node | None
        root = None
        documents = 0
        scalar = self.scalar
        while check():
            ev = get()
            cls = type(ev)
            if cls is ScalarEvent:
                node = scalar(ev)
                self.count += 1
                if ev.anchor is not None:
                    anchors[ev.anchor] = node
                    self.entangled = True
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                if len(stack) + self.depth_base >= MAX_DEPTH:
                    start = ev.start_mark.index
                    self.report(
                        TOO_DEEP,
                        f"nesting deeper than {MAX_DEPTH} levels is not analysed",
                        start,
                        start + 1,
                    )
                    raise _Abort
                is_map = cls is MappingStartEvent
                tag = ev.tag
                if tag is not None and tag != "!":
                    self.check_collection_tag(tag, _MAP if is_map else _SEQ, ev.start_mark.index)
                stack.append(
                    _Frame(
                        "map" if is_map else "seq",
                        ev.start_mark.index,
                        tag,
                        bool(ev.flow_style),
                        ev.anchor,
                    )
                )
                if ev.anchor is not None:
                    open_anchors.add(ev.anchor)
                    self.entangled = True
                self.count += 1
                continue
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                frame = stack.pop()
                end = ev.end_mark.index
                if frame.kind == "map":
                    node = self.mapping(frame, end)
                else:
                    node = Sequence(frame.start, end, frame.items, frame.flow)
                self.sizes[id(node)] = frame.size
                if frame.size > MAX_EXPANSION and frame.size > 10 * self.count:
                    self._bomb(node)
                if frame.anchor is not None:
                    anchors[frame.anchor] = node
                    open_anchors.discard(frame.anchor)
            elif cls is AliasEvent:
                self.entangled = True
                name = ev.anchor
                start, end = ev.start_mark.index, ev.end_mark.index
                if name in open_anchors:
                    self.report(
                        ALIAS_BOMB,
                        "this alias refers to the node that contains it (recursive alias)",
                        start,
                        end,
                    )
                    raise _Abort
                node = anchors.get(name)
                if node is None:
                    self.report(
                        SYNTAX,
                        f"the alias *{name} refers to no anchor (&{name}) defined before it",
                        start,
                        end,
                    )
                    raise _Abort
            elif cls is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    self._multiple_documents(ev.start_mark.index)
                    return root
                continue
            else:  # stream start/end, document end
                continue
            # a finished node: attach it to its parent
            if stack:
                parent = stack[-1]
                parent.items.append(node)
                parent.size += self.sizes.get(id(node), 1)
            else:
                root = node
        return root

    def _bomb(self, node: Node) -> None:
        line = self.lines.position(node.start).line
        eol = self.lines.line_start(line) + len(self.lines.line_text(line))
        self.report(
            ALIAS_BOMB,
            f"aliases expand this document to more than {MAX_EXPANSION:,} "
            f"nodes (from {self.count:,} written); refusing to analyse it",
            node.start,
            max(min(eol, node.end), node.start + 1),
        )
        raise _Abort

    def _doc(self, root: Any) -> Document:
        self.problems.sort(key=Diagnostic.sort_key)
        return Document(
            self.text,
            self.lines,
            root,
            self.problems,
            "json" if self.json else "yaml",
            self.count,
            self.entangled,
        )

    def _multiple_documents(self, at: int) -> None:
        m = _DOC_MARKER.search(self.text, at)
        start = m.start() if m and m.start() == at else at
        line = self.lines.position(start).line
        end = self.lines.line_start(line) + len(self.lines.line_text(line))
        if m and m.start() == at:
            end = m.end()
        self.report(
            MULTIPLE_DOCUMENTS,
            "a jobspec is a single YAML document; remove the second document "
            "(everything from here on)",
            start,
            max(end, start + 1),
        )

    def stream(self) -> list[Diagnostic]:
        """What a document too large for a tree shows when its events are read one at a
        time, none kept: a YAML syntax error (JS901, at its place), and the top-level
        keys — missing (JS101) or unknown (JS102) ones. Memory stays bounded whatever the
        size; libyaml's reading is the cost (about 75 ns per character here)."""
        keys: list[tuple[str, int, int]] = []
        depth, kind = 0, None
        at_key = True  # the next top-level node completed is a key (else a value)
        documents = 0
        key: str | None = None  # the key of the value being read (None: not a scalar)
        start = 0  # where the top-level node being read starts
        spans = self.spans
        loader = _Loader(self.text)
        try:
            while loader.check_event():
                ev = loader.get_event()
                cls = type(ev)
                if cls is MappingStartEvent or cls is SequenceStartEvent:
                    if depth == 0:
                        kind = cls
                        self.flow_root = bool(ev.flow_style)
                    elif depth == 1:
                        start = ev.start_mark.index
                    depth += 1
                    continue
                if cls is MappingEndEvent or cls is SequenceEndEvent:
                    depth -= 1
                    if depth != 1:
                        continue  # (a collection at the top level ends here)
                elif cls is ScalarEvent or cls is AliasEvent:
                    if depth != 1:
                        continue
                    start = ev.start_mark.index
                elif cls is DocumentStartEvent:
                    documents += 1
                    if documents > 1:  # the jobspec is the first document (JS903)
                        self._multiple_documents(ev.start_mark.index)
                        break
                    continue
                else:
                    continue
                if kind is not MappingStartEvent:
                    continue
                if at_key:
                    key = ev.value if cls is ScalarEvent else None
                    if key is None or key == "<<":
                        self.odd_keys = True  # an alias, a collection or a merge as a key
                        key = None
                    else:
                        keys.append((key, start, ev.end_mark.index))
                elif key is not None:
                    spans[key] = (start, ev.end_mark.index)
                at_key = not at_key
        except yaml.MarkedYAMLError as exc:
            self._syntax_error(exc)
            return self.problems
        except yaml.YAMLError as exc:  # pragma: no cover - unmarked errors
            self.report(SYNTAX, f"invalid YAML: {exc}", 0, 0)
            return self.problems
        finally:
            loader.dispose()
        if kind is not MappingStartEvent:
            return self.problems
        allowed = ("version", "resources", "tasks", "attributes")
        for name, start, end in keys:
            if name not in allowed:
                self.report(
                    "JS102",
                    f"unknown key {name!r} in the jobspec (allowed: {', '.join(allowed)})",
                    start,
                    end,
                )
        missing = [k for k in allowed if k not in {name for name, _, _ in keys}]
        if missing and not self.odd_keys:  # (a key that is not a scalar may be any of them)
            self.report(
                "JS101",
                f"missing required top-level key{'s' if len(missing) > 1 else ''}: "
                + ", ".join(missing),
                0,
                len(self.lines.line_text(0)),
            )
        return self.problems

    def _check_json(self) -> bool:
        try:
            json.loads(self.text, parse_constant=_no_constant, parse_int=_json_int)
        except _HugeJSONNumber as exc:
            at = self.text.find(exc.digits)
            self.report(
                SYNTAX,
                f"invalid JSON: a number of {len(exc.digits):,} digits is too large to read "
                "(Flux reads integers of up to 64 bits)",
                max(at, 0),
                max(at, 0) + len(exc.digits) if at >= 0 else 1,
            )
            return False
        except _NotJSONConstant:
            for m in _JSON_CONSTANT.finditer(self.text):
                if m.group(1):
                    self.report(
                        SYNTAX,
                        f"invalid JSON: {m.group(1)} is not a JSON value "
                        "(Python writes it; JSON has no infinity or NaN)",
                        m.start(1),
                        m.end(1),
                    )
                    break
            return False
        except json.JSONDecodeError as exc:
            self.report(SYNTAX, *describe(self.text, exc))
            return False
        except RecursionError:
            self.report(
                TOO_DEEP, f"nesting is too deep to read (more than {MAX_DEPTH} levels)", 0, 1
            )
            return False
        except ValueError as exc:  # e.g. huge integers beyond Python's digit limit
            self.report(SYNTAX, f"invalid JSON: {exc}", 0, 1)
            return False
        return True

    def _library_too_deep(self, exc: yaml.MarkedYAMLError) -> None:
        """JS908 when the YAML library refuses the nesting before MAX_DEPTH is met.

        libyaml 0.2.6 (in PyYAML 6.0.4's wheels) stops at 1,000 levels, but while scanning
        ahead: a flow collection is scanned to its end before its first event reaches
        the check in _events.  The text before the library's stopping point is read
        again (events stream there), so the diagnostic is the one MAX_DEPTH gives, on
        the opener past the limit; a library stopping below MAX_DEPTH gets JS908 at its
        own stopping point."""
        mark = exc.problem_mark or exc.context_mark
        off = min(mark.index if mark is not None else 0, len(self.text))
        if off < len(self.text):
            head = self.text[:off]
            probe = _Parser(head, LineIndex(head), "yaml")
            probe.run()
            found = [d for d in probe.problems if d.code == TOO_DEEP]
            if found:
                self.problems.append(found[0])
                return
        self.report(
            TOO_DEEP,
            f"nesting is too deep to read: the YAML library stops here ({exc.problem}); "
            "the document is not analysed",
            off,
            min(off + 1, len(self.text)) or off,
        )

    def _syntax_error(self, exc: yaml.MarkedYAMLError) -> None:
        mark = exc.problem_mark or exc.context_mark
        off = mark.index if mark is not None else 0
        off = min(off, len(self.text))
        ch = self.text[off : off + 1]
        line = self.lines.position(off).line
        line_text = self.lines.line_text(line)
        indent = line_text[: len(line_text) - len(line_text.lstrip(" \t"))]
        if "\t" in indent and (ch == "\t" or off - self.lines.line_start(line) <= len(indent)):
            tab = self.lines.line_start(line) + indent.index("\t")
            self.report(
                TAB_INDENT,
                "tab character in indentation; YAML only allows spaces here",
                tab,
                tab + 1,
            )
            return
        problem = exc.problem or "invalid YAML"
        message = problem
        at_end = off >= len(self.text.rstrip())
        context_at_end = exc.context_mark is not None and exc.context_mark.index >= len(
            self.text.rstrip()
        )
        related = None
        if at_end and (context_at_end or not exc.context):
            opener = next(reversed(open_brackets(self.text, comments=True)), None)
            message = "the document ends too early: " + problem
            if opener is not None:
                pos = self.lines.position(opener)
                message += (
                    f" (the {self.text[opener]!r} at line {pos.line + 1}, column "
                    f"{pos.character + 1} is never closed)"
                )
                related = [[opener, opener + 1, f"this {self.text[opener]!r} is never closed"]]
        elif exc.context and exc.context_mark is not None and exc.context_mark is not mark:
            cidx = exc.context_mark.index
            cpos = self.lines.position(cidx)
            message = (
                f"{problem} ({exc.context} that starts at line {cpos.line + 1}, "
                f"column {cpos.character + 1})"
            )
            what = exc.context.removeprefix("while parsing ").removeprefix("a ")
            related = [[cidx, min(cidx + 1, len(self.text)), f"the {what} starts here"]]
        elif exc.context:
            message = f"{problem} ({exc.context})"
        if off >= len(self.text.rstrip()):
            # at the end of the input: point at the last real character instead
            off = max(len(self.text.rstrip()) - 1, 0)
        self.report(
            SYNTAX,
            message,
            off,
            min(off + 1, len(self.text)),
            data={"related": related} if related else None,
        )

    # ----------------------------------------------------------------- nodes
    def check_collection_tag(self, tag: str | None, expected: str, start: int) -> None:
        if tag == expected:
            return
        if tag in _NON_JSON_COLLECTION_TAGS:
            self.report(
                NOT_JSON_VALUE,
                f"the tag {_short_tag(tag)} makes a value with no JSON form; remove the tag",
                start,
                self._tag_end(start),
            )
        elif tag in _SAFE_COLLECTION_TAGS:
            self.report(
                UNSAFE_TAG,
                f"the tag {_short_tag(tag)} does not fit this value",
                start,
                self._tag_end(start),
            )
        else:
            self.report(
                UNSAFE_TAG,
                f"the tag {_short_tag(tag or '')} is not supported by Flux's safe YAML loader; "
                "remove it",
                start,
                self._tag_end(start),
            )

    def _tag_end(self, start: int) -> int:
        text = self.text
        end = start
        while end < len(text) and not text[end].isspace():
            end += 1
        return max(end, start + 1)

    def scalar(self, ev: Any) -> Scalar:
        start, end = ev.start_mark.index, ev.end_mark.index
        raw, style, tag = ev.value, ev.style or None, ev.tag  # libyaml says '' for plain
        plain = ev.implicit[0]
        if tag is None or tag == "!":
            if self.json:
                if style is None:
                    value = self._json_plain(raw)
                else:
                    value = self._json_string(raw, start, end)
                self._finite(value, raw, start, end)
                return Scalar(start, end, value, style, _STR)
            if not plain:
                return Scalar(start, end, raw, style, _STR)
            tag = _resolve(raw)
            if tag == _STR:
                if raw[:1] in _AMBIGUOUS_FIRST:
                    self.ambiguity(start, end, raw, raw)
                return Scalar(start, end, raw, None, _STR)
        elif tag == _STR:
            return Scalar(start, end, raw, style, _STR)
        if tag == _NULL:
            value = None
        else:
            ctor = _SCALAR_CONSTRUCTORS.get(tag)
            if ctor is None:
                if tag == _MERGE:
                    self.entangled = True
                    return Scalar(start, end, "<<", style, tag)
                self.report(
                    UNSAFE_TAG,
                    f"the tag {_short_tag(tag)} is not supported by Flux's safe "
                    "YAML loader; remove it",
                    start,
                    self._tag_end(start),
                )
                return Scalar(start, end, raw, style, tag)
            try:
                value = ctor(_constructor, yaml.ScalarNode(tag, raw))
            except Exception as exc:  # noqa: BLE001 - a value that does not fit its explicit tag
                self.report(
                    UNSAFE_TAG,
                    f"{_brief(raw)} has more digits than Python (Flux's YAML reader) reads as a "
                    "number (4,300); write a smaller number, or quote it to keep a string"
                    if "Exceeds the limit" in str(exc)
                    else f"{_brief(raw)} cannot be read as {_short_tag(tag)}: {str(exc)[:160]}",
                    start,
                    end,
                )
                return Scalar(start, end, raw, style, _STR)
            if tag in (_TIMESTAMP, _BINARY):
                what = "a date" if tag == _TIMESTAMP else "binary data"
                fix = json.dumps(raw) if tag == _TIMESTAMP else None
                self.report(
                    NOT_JSON_VALUE,
                    f"YAML 1.1 reads {raw!r} as {what}, which Flux cannot "
                    "encode as JSON; quote it to keep it a string",
                    start,
                    end,
                    data={"replacement": fix} if fix else None,
                )
        self._finite(value, raw, start, end)
        if plain and raw and ev.tag is None:
            self.ambiguity(start, end, raw, value)
        return Scalar(start, end, value, style, tag)

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
        v12 = yaml12_value(raw)
        if _same(v12, value):
            return
        if isinstance(value, (datetime.date, bytes)):
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

    def _json_string(self, raw: str, start: int, end: int) -> str:
        """A JSON string's value as JSON decodes it (surrogate pairs joined); a lone
        surrogate, which is no character, is reported where it is written."""
        source = self.text[start:end]
        if "\\u" not in source:
            return raw
        try:
            value = json.loads(source)
        except ValueError:  # pragma: no cover - _check_json accepted the whole text
            return raw
        if not isinstance(value, str):  # pragma: no cover
            return raw
        if not any("\ud800" <= c <= "\udfff" for c in value):
            return value  # every surrogate escape was half of a pair: joined
        escapes = list(_SURROGATE_ESCAPE.finditer(source))
        i = 0
        while i < len(escapes):
            m = escapes[i]
            high = int(m.group(0)[2:], 16) <= 0xDBFF
            nxt = escapes[i + 1] if i + 1 < len(escapes) else None
            if (
                high
                and nxt is not None
                and nxt.start() == m.end()
                and int(nxt.group(0)[2:], 16) >= 0xDC00
            ):
                i += 2  # a pair: one character
                continue
            self.report(
                SYNTAX,
                f"{m.group(0)} is half of a surrogate pair, not a character: Flux cannot read it",
                start + m.start(),
                start + m.end(),
            )
            i += 1
        # what is reported is kept out of the value: no later step meets a lone surrogate
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in value)

    def _json_plain(self, raw: str) -> Any:  # _check_json has refused numbers int() cannot read
        if raw == "true":
            return True
        if raw == "false":
            return False
        if raw == "null":
            return None
        m = _JSON_NUMBER.match(raw)
        if m:
            if m.group(1) or m.group(2):
                return float(raw)
            return int(raw)
        return raw

    def mapping(self, frame: _Frame, end: int) -> Mapping:
        items = frame.items
        pairs: list[Any] = []
        index: dict[Any, int] = {}
        merged: list[Any] = []
        for i in range(0, len(items) - 1, 2):
            k, v = items[i], items[i + 1]
            if isinstance(k, Scalar) and k.tag == _MERGE and not self.json:
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
            kv = k.value
            prev = index.get(kv)
            if prev is not None:
                pk = pairs[prev][0]
                ppos = self.lines.position(pk.start)
                self.report(
                    DUPLICATE_KEY,
                    f"duplicate key {self.text[k.start : k.end]!s}: it is already set on line "
                    f"{ppos.line + 1}; Flux would silently keep only this last value",
                    k.start,
                    k.end,
                    data={"first": [pk.start, pk.end]},
                )
                pairs[prev] = (k, v)
                continue
            index[kv] = len(pairs)
            pairs.append((k, v))
        if merged:
            pairs, index = self._merge(merged, pairs, index)
        return Mapping(frame.start, end, pairs, index, frame.flow)

    def _merge(self, merged: list[Any], pairs: list[Any], index: dict[Any, int]) -> Any:
        """Apply YAML 1.1 merge keys the way PyYAML's safe loader does."""
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


# a \u escape of a UTF-16 surrogate (half of a character beyond U+FFFF)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _brief(s: str, limit: int = 40) -> str:
    """``repr(s)``, its middle left out when it is long (a 4,400-digit number, say)."""
    text = repr(s)
    return (
        text
        if len(text) <= limit
        else f"{text[: limit // 2]}…{text[-(limit // 4) :]} ({len(s):,} characters)"
    )


class _NotJSONConstant(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise _NotJSONConstant(name)


class _HugeJSONNumber(ValueError):
    def __init__(self, digits: str):
        super().__init__(digits)
        self.digits = digits


def _json_int(digits: str) -> int:

    n = python_int(digits)
    if n is None:
        raise _HugeJSONNumber(digits)
    return n


# a JSON string, or one of the constants Python's json module reads and JSON has not
_JSON_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)')


class _Abort(Exception):
    pass


def _library_depth_limit(exc: yaml.MarkedYAMLError) -> bool:
    """Whether ``exc`` is the YAML library's own nesting limit, not a syntax error:
    libyaml 0.2.6 says "exceeded maximum nesting depth" (while increasing the flow or
    block level); the words are matched loosely, as another release may put them
    differently."""
    problem = (exc.problem or "").lower()
    return "nesting" in problem and ("depth" in problem or "level" in problem)


def _short_tag(tag: str) -> str:
    if tag.startswith("tag:yaml.org,2002:"):
        return "!!" + tag[len("tag:yaml.org,2002:") :]
    return tag
