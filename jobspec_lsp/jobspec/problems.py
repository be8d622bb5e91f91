"""The JS9xx rules: what the YAML (or JSON) level of a jobspec can have wrong, and the
limits of its reading (the characters read into a tree, the nesting, the aliases).

Reading the text (:mod:`jobspec_lsp.jobspec.document` and the readers under it) reports
these; parsing never raises. Nothing here loads the YAML library."""

from __future__ import annotations

from jobspec_lsp.diagnostics import Diagnostic, Family, Severity
from jobspec_lsp.jobspec.tree import Document

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from jobspec_lsp.text.positions import LineIndex

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


def unread(
    text: str, lines: LineIndex, language: str, code: str, message: str, start: int, end: int
) -> Document:
    """A document that is not read into a tree, with the one error that says why."""
    return Document(text, lines, None, [Diagnostic(code, E, message, start, end)], language)
