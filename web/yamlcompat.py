"""PyYAML's pure-Python reader, made to read as its libyaml reader does: the playground's
YAML reader under Pyodide, which has no libyaml (web/build.py vendors PyYAML without its
extension; the package then falls back to yaml.SafeLoader).

The two readers differ in two ways that reach a finding:

- tabs: libyaml takes a tab as white space between tokens in a flow collection and after
  a token on a line (a JSON document indented with tabs is read); the pure reader stops
  at it ("found character '\\t' that cannot start any token"), JS901 or JS904 where the
  CLI finds nothing;
- words: the same error is said differently ("did not find expected key" against
  "expected <block end>, but found '<scalar>'"), and the package's JS901 quotes them.

:class:`Loader` is yaml.SafeLoader with libyaml's rule for tabs and libyaml's words for
its errors; :func:`install` makes it the package's reader. tests/web/test_pure_yaml.py
holds its findings to libyaml's, on the test corpus and on thousands of broken variants
of it. (The package's own fallback, without libyaml anywhere, could use it too.)
"""

from __future__ import annotations

import re

import yaml
from yaml.error import Mark
from yaml.reader import ReaderError
from yaml.scanner import ScannerError
from yaml.tokens import DirectiveToken, ScalarToken, TagToken

# the pure reader's problem (a pattern) and the context it is said in (None: any) ->
# libyaml's words for the same error, and where they differ, libyaml's context and how many
# characters before the pure reader's its mark is
_WORDS: list[tuple[re.Pattern[str], str | None, str, str | None, int]] = [
    (re.compile(p), ctx, said, new_ctx, back)
    for p, ctx, said, new_ctx, back in (
        (r"mapping values are not allowed here$", None, "mapping values are not allowed in this context", None, 0),
        (r"mapping keys are not allowed here$", None, "mapping keys are not allowed in this context", None, 0),
        (r"sequence entries are not allowed here$", None, "block sequence entries are not allowed in this context", None, 0),
        (r"expected <block end>, but found ", "while parsing a block collection", "did not find expected '-' indicator", None, 0),
        (r"expected <block end>, but found ", "while parsing a block mapping", "did not find expected key", None, 0),
        (r"expected ',' or '\]', but got ", None, "did not find expected ',' or ']'", None, 0),
        (r"expected ',' or '\}', but got ", None, "did not find expected ',' or '}'", None, 0),
        (r"expected '<document start>', but found ", None, "did not find expected <document start>", None, 0),
        (r"expected the node content, but found ", None, "did not find expected node content", None, 0),
        (r"found character .* that cannot start any token$", None, "found character that cannot start any token", None, 0),
        (r"expected alphabetic or numeric character, but found ", None, "did not find expected alphabetic or numeric character", None, 0),
        (r"expected a comment or a line break, but found ", None, "did not find expected comment or line break", None, 0),
        (r"expected ' ', but found ", "while scanning a tag", "did not find expected whitespace or line break", None, 0),
        (r"expected indentation indicator in the range 1-9, but found 0", None, "found an indentation indicator equal to 0", None, 0),
        (r"found unexpected document separator$", None, "found unexpected document indicator", None, 0),
        (r"found unknown escape character ", None, "found unknown escape character", "while parsing a quoted scalar", 1),
        (r"expected escape sequence of \d+ hexadecimal numbers, but found ", None, "did not find expected hexdecimal number", "while parsing a quoted scalar", 0),
        (r"expected URI escape sequence of 2 hexadecimal numbers, but found ", None, "did not find URI escaped octet", "while parsing a tag", 1),
    )
]  # fmt: skip
_READER_WORDS = {"special characters are not allowed": "control characters are not allowed"}


def libyaml_words(exc: yaml.MarkedYAMLError) -> None:
    """``exc``'s problem in libyaml's words (in place; an error said the same by both, or
    not known here, is left as it is)."""
    if (
        exc.context
        and exc.problem_mark is not None
        and (exc.context_mark is None or exc.context_mark is exc.problem_mark)
    ):
        # libyaml marks where the construct starts, a mark of its own even where that is
        # where the error is (the package then says where it starts)
        m = exc.problem_mark
        exc.context_mark = Mark(m.name, m.index, m.line, m.column, m.buffer, m.pointer)
    problem = exc.problem or ""
    for pattern, context, said, new_context, back in _WORDS:
        if (context is None or exc.context == context) and pattern.match(problem):
            exc.problem = said
            if new_context is not None:
                exc.context = new_context
            m = exc.problem_mark
            if back and m is not None and m.index >= back:
                exc.problem_mark = Mark(
                    m.name, m.index - back, m.line, max(m.column - back, 0), m.buffer, m.pointer
                )
            return


class Loader(yaml.SafeLoader):
    """yaml.SafeLoader reading tabs, and saying its errors, as libyaml does."""

    def __init__(self, stream):
        try:
            super().__init__(stream)
        except ReaderError as exc:
            exc.reason = _READER_WORDS.get(exc.reason, exc.reason)
            raise

    def scan_to_next_token(self):
        # libyaml (yaml_parser_scan_to_next_token): a tab is white space inside a flow
        # collection, and after a token on its line (where no simple key may start)
        if self.index == 0 and self.peek() == "\ufeff":
            self.forward()
        found = False
        while not found:
            while self.peek() == " " or (
                self.peek() == "\t" and (self.flow_level or not self.allow_simple_key)
            ):
                self.forward()
            if self.peek() == "#":
                while self.peek() not in "\0\r\n\x85\u2028\u2029":
                    self.forward()
            if self.scan_line_break():
                if not self.flow_level:
                    self.allow_simple_key = True
            else:
                found = True

    def scan_plain(self):
        # libyaml's yaml_parser_scan_plain_scalar: tabs are blanks inside a plain scalar
        # (the pure reader ends the scalar at one), '?' does not end it in a flow
        # collection, ':' before a flow indicator there is an error
        chunks: list[str] = []
        start_mark = self.get_mark()
        end_mark = start_mark
        indent = self.indent + 1
        blanks = "\0 \t\r\n\x85\u2028\u2029"
        whitespaces = ""
        leading_break = ""
        trailing_breaks: list[str] = []
        leading_blanks = False
        while True:
            if self.column == 0 and self.prefix(3) in ("---", "...") and self.peek(3) in blanks:
                break
            if self.peek() == "#":
                break
            length = 0
            while True:
                ch = self.peek(length)
                if ch in blanks:
                    break
                if self.flow_level and ch == ":" and self.peek(length + 1) in ",?[]{}":
                    self.forward(length)
                    raise ScannerError(
                        "while scanning a plain scalar",
                        start_mark,
                        "found unexpected ':'",
                        self.get_mark(),
                    )
                if (ch == ":" and self.peek(length + 1) in blanks) or (
                    self.flow_level and ch in ",[]{}"
                ):
                    break
                if length == 0 and (leading_blanks or whitespaces):
                    if leading_blanks:
                        if leading_break == "\n":
                            chunks.append("".join(trailing_breaks) if trailing_breaks else " ")
                        else:
                            chunks.append(leading_break + "".join(trailing_breaks))
                        leading_break, trailing_breaks, leading_blanks = "", [], False
                    else:
                        chunks.append(whitespaces)
                        whitespaces = ""
                length += 1
            if length:
                self.allow_simple_key = False
                chunks.append(self.prefix(length))
                self.forward(length)
                end_mark = self.get_mark()
            ch = self.peek()
            if ch not in " \t\r\n\x85\u2028\u2029":
                break
            while self.peek() in " \t\r\n\x85\u2028\u2029":
                ch = self.peek()
                if ch in " \t":
                    if leading_blanks and self.column < indent and ch == "\t":
                        raise ScannerError(
                            "while scanning a plain scalar",
                            start_mark,
                            "found a tab character that violates indentation",
                            self.get_mark(),
                        )
                    if not leading_blanks:
                        whitespaces += ch
                    self.forward()
                elif not leading_blanks:
                    whitespaces = ""
                    leading_break = self.scan_line_break()
                    leading_blanks = True
                else:
                    trailing_breaks.append(self.scan_line_break())
            if not self.flow_level and self.column < indent:
                break
        if leading_blanks:
            self.allow_simple_key = True
        return ScalarToken("".join(chunks), True, start_mark, end_mark)

    def scan_tag(self):
        # the pure reader's, with a tab taken as the blank after a tag (as libyaml does)
        start_mark = self.get_mark()
        ch = self.peek(1)
        if ch == "<":
            handle = None
            self.forward(2)
            self._verbatim = True
            try:
                suffix = self.scan_tag_uri("tag", start_mark)
            finally:
                self._verbatim = False
            if self.peek() != ">":
                raise ScannerError(
                    "while parsing a tag",
                    start_mark,
                    f"expected '>', but found {self.peek()!r}",
                    self.get_mark(),
                )
            self.forward()
        elif ch in "\0 \t\r\n\x85\u2028\u2029":
            handle = None
            suffix = "!"
            self.forward()
        else:
            # libyaml (yaml_parser_scan_tag_handle): '!', word characters, and a '!'
            # right after them make a handle; anything else is a local tag
            length = 1
            while self.peek(length).isascii() and (
                self.peek(length).isalnum() or self.peek(length) in "-_"
            ):
                length += 1
            use_handle = self.peek(length) == "!"
            if use_handle:
                handle = self.scan_tag_handle("tag", start_mark)
                suffix = self.scan_tag_uri("tag", start_mark)
            else:
                # not a handle: '!' and the rest, which may be empty (libyaml counts
                # the '!' as the tag's first character)
                handle = "!"
                self.forward()
                self._local = True
                try:
                    suffix = self.scan_tag_uri("tag", start_mark)
                finally:
                    self._local = False
        ch = self.peek()
        if ch not in "\0 \t\r\n\x85\u2028\u2029" and not (self.flow_level and ch == ","):
            raise ScannerError(
                "while scanning a tag",
                start_mark,
                f"expected ' ', but found {ch!r}",
                self.get_mark(),
            )
        return TagToken((handle, suffix), start_mark, self.get_mark())

    def scan_tag_uri(self, name, start_mark):
        # libyaml's characters: ',', '[' and ']' only in a verbatim tag (!<...>) or a %TAG
        # directive, since they end a tag in a flow collection
        flow_ok = name == "directive" or self._verbatim
        extra = "-;/?:@&=+$_.!~*'()%" + (",[]" if flow_ok else "")
        chunks = []
        length = 0
        ch = self.peek(length)
        while "0" <= ch <= "9" or "A" <= ch <= "Z" or "a" <= ch <= "z" or ch in extra:
            if ch == "%":
                chunks.append(self.prefix(length))
                self.forward(length)
                length = 0
                chunks.append(self.scan_uri_escapes(name, start_mark))
            else:
                length += 1
            ch = self.peek(length)
        if length:
            chunks.append(self.prefix(length))
            self.forward(length)
        if not chunks and not self._local:
            raise ScannerError(
                f"while parsing a {name}",
                start_mark,
                "did not find expected tag URI",
                self.get_mark(),
            )
        return "".join(chunks)

    _verbatim = False
    _local = False

    def scan_block_scalar_indicators(self, start_mark):
        # the pure reader's, without its check of what follows: as in libyaml, the rest of
        # the line is blanks and a comment (a tab, a '#' right after the indicator) or an
        # error said by scan_block_scalar_ignored_line
        chomping = increment = None
        for _ in range(2):
            ch = self.peek()
            if ch in "+-" and chomping is None:
                chomping = ch == "+"
                self.forward()
            elif ch in "0123456789" and increment is None:
                if ch == "0":
                    raise ScannerError(
                        "while scanning a block scalar",
                        start_mark,
                        "expected indentation indicator in the range 1-9, but found 0",
                        self.get_mark(),
                    )
                increment = int(ch)
                self.forward()
            else:
                break
        return chomping, increment

    def scan_block_scalar(self, style):
        self._block_start = self.get_mark()
        return super().scan_block_scalar(style)

    _block_start = None

    def _tab_in_indentation(self):
        raise ScannerError(
            "while scanning a block scalar",
            self._block_start,
            "found a tab character where an indentation space is expected",
            self.get_mark(),
        )

    def scan_block_scalar_indentation(self):
        # libyaml (yaml_parser_scan_block_scalar_breaks): a tab before the content's
        # indentation is known is an error, not content
        got = super().scan_block_scalar_indentation()
        if self.peek() == "\t":
            self._tab_in_indentation()
        return got

    def scan_block_scalar_breaks(self, indent):
        chunks = []
        end_mark = self.get_mark()
        while self.column < indent and self.peek() == " ":
            self.forward()
        if self.column < indent and self.peek() == "\t":
            self._tab_in_indentation()
        while self.peek() in "\r\n\x85\u2028\u2029":
            chunks.append(self.scan_line_break())
            end_mark = self.get_mark()
            while self.column < indent and self.peek() == " ":
                self.forward()
            if self.column < indent and self.peek() == "\t":
                self._tab_in_indentation()
        return chunks, end_mark

    def scan_directive(self):
        # libyaml: a directive other than %YAML and %TAG is an error (the pure reader
        # skips it), and its name ends at a blank (a tab too)
        start_mark = self.get_mark()
        self.forward()
        length = 0
        while self.peek(length).isascii() and (
            self.peek(length).isalnum() or self.peek(length) in "-_"
        ):
            length += 1
        if not length:
            raise ScannerError(
                "while scanning a directive",
                start_mark,
                "could not find expected directive name",
                self.get_mark(),
            )
        if self.peek(length) not in "\0 \t\r\n\x85\u2028\u2029":
            self.forward(length)
            raise ScannerError(
                "while scanning a directive",
                start_mark,
                "found unexpected non-alphabetical character",
                self.get_mark(),
            )
        name = self.prefix(length)
        self.forward(length)
        if name == "YAML":
            value = self.scan_yaml_directive_value(start_mark)
        elif name == "TAG":
            while self.peek() in " \t":
                self.forward()
            value = self.scan_tag_directive_value(start_mark)
        else:
            raise ScannerError(
                "while scanning a directive",
                start_mark,
                "found unknown directive name",
                self.get_mark(),
            )
        end_mark = self.get_mark()
        self.scan_directive_ignored_line(start_mark)
        return DirectiveToken(name, value, start_mark, end_mark)

    def scan_yaml_directive_value(self, start_mark):
        while self.peek() in " \t":
            self.forward()
        major = self.scan_yaml_directive_number(start_mark)
        if self.peek() != ".":
            raise ScannerError(
                "while scanning a %YAML directive",
                start_mark,
                "did not find expected digit or '.' character",
                self.get_mark(),
            )
        self.forward()
        return major, self.scan_yaml_directive_number(start_mark)

    def scan_yaml_directive_number(self, start_mark):
        length = 0
        while self.peek(length) in "0123456789":
            length += 1
            if length > 9:
                raise ScannerError(
                    "while scanning a %YAML directive",
                    start_mark,
                    "found extremely long version number",
                    self.get_mark(),
                )
        if not length:
            raise ScannerError(
                "while scanning a %YAML directive",
                start_mark,
                "did not find expected version number",
                self.get_mark(),
            )
        value = int(self.prefix(length))
        self.forward(length)
        return value

    def scan_block_scalar_ignored_line(self, start_mark):
        while self.peek() in " \t":
            self.forward()
        return super().scan_block_scalar_ignored_line(start_mark)

    def scan_directive_ignored_line(self, start_mark):
        while self.peek() in " \t":
            self.forward()
        return super().scan_directive_ignored_line(start_mark)

    # the package reads events: each error they raise is said in libyaml's words
    def check_event(self, *choices):
        try:
            return super().check_event(*choices)
        except yaml.MarkedYAMLError as exc:
            libyaml_words(exc)
            raise

    def peek_event(self):
        try:
            return super().peek_event()
        except yaml.MarkedYAMLError as exc:
            libyaml_words(exc)
            raise

    def get_event(self):
        try:
            return super().get_event()
        except yaml.MarkedYAMLError as exc:
            libyaml_words(exc)
            raise

    def get_single_node(self):
        try:
            return super().get_single_node()
        except yaml.MarkedYAMLError as exc:
            libyaml_words(exc)
            raise


def install() -> bool:
    """Make :class:`Loader` the package's YAML reader where PyYAML has no libyaml (under
    Pyodide); True when it did."""
    if getattr(yaml, "__with_libyaml__", False):
        return False
    from jobspec_lsp.fmt import tree
    from jobspec_lsp.jobspec import document, yamlevents

    document._Loader = Loader
    yamlevents.LOADER = Loader
    tree._Loader = Loader
    return True
