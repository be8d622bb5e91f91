"""JS908 for deep nesting whichever YAML reader refuses first: libyaml up to 0.2.5 (no
limit), libyaml 0.2.6 (stops at 1,000 levels while scanning ahead, with its own error),
and PyYAML's pure-Python loader (no limit)."""

import pytest
import yaml
from yaml.error import Mark
from yaml.scanner import ScannerError

from jobspec_lsp.jobspec import document
from jobspec_lsp.jobspec.document import MAX_DEPTH, parse

OURS = f"nesting deeper than {MAX_DEPTH} levels is not analysed"


def deep_problems(text):
    return [(d.code, d.message, d.start) for d in parse(text).problems]


def limited_loader(limit):
    """A loader that behaves like libyaml 0.2.6 with a nesting limit of ``limit``: it
    scans the whole text before the first event and refuses the opener past the limit
    with the library's own words (the pure loader underneath otherwise)."""

    class Limited(yaml.SafeLoader):
        def __init__(self, text):
            super().__init__(text)
            self.scanned = False
            self.text = text

        def check_event(self, *choices):
            if not self.scanned:
                self.scanned = True
                level = 0
                for i, ch in enumerate(self.text):
                    if ch in "[{":
                        level += 1
                        if level > limit:
                            mark = Mark("<unicode string>", i, 0, i, self.text, i)
                            raise ScannerError(
                                "while increasing flow level",
                                mark,
                                "exceeded maximum nesting depth",
                                mark,
                            )
                    elif ch in "]}":
                        level -= 1
            return super().check_event(*choices)

    return Limited


@pytest.mark.parametrize("n", [MAX_DEPTH + 1, 999, 1001, 100_000])
def test_deep_flow_nesting_is_js908_with_the_installed_reader(n):
    # whatever PyYAML and libyaml are installed: libyaml 0.2.6 refuses 1,001 levels itself
    assert deep_problems("[" * n + "]" * n) == [("JS908", OURS, MAX_DEPTH)]


def test_depth_at_the_limit_is_read():
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert deep_problems(text) == []


def test_block_levels_then_flow_levels_count_together():
    # a mapping and 150 block sequences, then 2,000 brackets: past libyaml 0.2.6's flow
    # limit, and the opener reported is our limit's (the 50th bracket), not the library's
    text = "a:\n" + "".join(" " * (i + 1) + "- \n" for i in range(150)) + " " * 152 + "[" * 2000
    brackets = text.index("[")
    assert deep_problems(text) == [("JS908", OURS, brackets + MAX_DEPTH - 151)]


@pytest.mark.parametrize("n", [MAX_DEPTH + 1, 1001, 100_000])
def test_pure_python_loader_without_a_limit(monkeypatch, n):
    monkeypatch.setattr(document, "_Loader", yaml.SafeLoader)
    assert deep_problems("[" * n + "]" * n) == [("JS908", OURS, MAX_DEPTH)]


def test_library_limit_above_ours_gives_our_diagnostic(monkeypatch):
    monkeypatch.setattr(document, "_Loader", limited_loader(1000))
    text = "{a: " * 3000 + "1" + "}" * 3000
    assert deep_problems(text) == [("JS908", OURS, 4 * MAX_DEPTH)]


def test_library_limit_below_ours_is_still_js908(monkeypatch):
    monkeypatch.setattr(document, "_Loader", limited_loader(50))
    text = "[" * 100 + "]" * 100
    [(code, message, start)] = deep_problems(text)
    assert code == "JS908" and start == 50
    assert "nesting is too deep to read" in message and "exceeded maximum nesting" in message


def test_syntax_errors_are_not_taken_for_depth(monkeypatch):
    monkeypatch.setattr(document, "_Loader", limited_loader(1000))
    assert [d.code for d in parse("a: [1, 2\n").problems] == ["JS901"]
    assert [d.code for d in parse("a: ]\n").problems] == ["JS901"]
