"""A Flux command line's words read as Flux's argparse parsers read them.

Python 3.11's argparse, as flux-core runs it, with ``allow_abbrev=False``: an exact
option name, ``--opt=value``, ``-N=4`` and ``-N4`` (a short option's value attached),
grouped short flags (``-xN2``), a value taken from the next word unless that word is
itself an option (a negative number is not; a word holding a space is not), a flag
given a value refused, an unknown option refused, and the first word that is not an
option starting the command (or, in a batch directive, the script's arguments).

Each word carries its source range (:class:`Word`); every option read and every
problem keeps the range of the text responsible. The tests hold this reading to a real
``argparse.ArgumentParser`` built from the same option table.
"""

from __future__ import annotations

import re

from jobspec_lsp.fluxcli.model import Command, Option
from jobspec_lsp.record import Frozen, Record


class Word(Frozen):
    """One word of a command line: its value and where its text is."""

    __slots__ = ("value", "start", "end")
    value: str
    start: int
    end: int

    def __init__(self, value: str, start: int, end: int) -> None:
        put = object.__setattr__
        put(self, "value", value)
        put(self, "start", start)
        put(self, "end", end)


class Given(Record):
    """One option as a command line gives it."""

    __slots__ = ("option", "name", "value", "value_start", "value_end")
    option: Option
    name: Word  # the word holding the option's name
    value: str | None
    value_start: int
    value_end: int

    def __init__(
        self, option: Option, name: Word, value: str | None, value_start: int, value_end: int
    ) -> None:
        self.option = option
        self.name = name
        self.value = value
        self.value_start = value_start
        self.value_end = value_end


class Problem(Frozen):
    """Why Flux refuses part of a command line. ``kind``: "unknown" (no such option;
    ``name`` is what was written), "needs-value", "takes-no-value", "rest" (the words
    from the first that is not an option: the command or arguments)."""

    __slots__ = ("kind", "message", "start", "end", "name", "option")
    kind: str
    message: str
    start: int
    end: int
    name: str
    option: Option | None

    def __init__(
        self,
        kind: str,
        message: str,
        start: int,
        end: int,
        name: str = "",
        option: Option | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "kind", kind)
        put(self, "message", message)
        put(self, "start", start)
        put(self, "end", end)
        put(self, "name", name)
        put(self, "option", option)


class Reading(Record):
    __slots__ = ("given", "problems", "rest")
    given: list[Given]
    problems: list[Problem]
    rest: list[Word]  # the command and its arguments

    def __init__(
        self,
        given: list[Given] | None = None,
        problems: list[Problem] | None = None,
        rest: list[Word] | None = None,
    ) -> None:
        self.given = [] if given is None else given
        self.problems = [] if problems is None else problems
        self.rest = [] if rest is None else rest


_NEGATIVE = re.compile(r"^-\d+$|^-\d*\.\d+$")  # argparse's own test (Unicode digits too)


def brief(text: str) -> str:
    return repr(text) if len(text) <= 40 else f"{text[:24]!r}… ({len(text):,} characters)"


def classify(cmd: Command, word: str) -> tuple[Option | None, str, str | None] | None:
    """What argparse makes of one word before reading values: None for a positional
    word, else (option or None when unknown, the option string written, the text after
    '=' or the rest of a short group, or None)."""
    if not word or word[0] != "-":
        return None
    if word.startswith("--") and word[2:] in cmd.by_long:
        return cmd.by_long[word[2:]], word, None
    if len(word) == 2 and word[1] in cmd.by_short:
        return cmd.by_short[word[1]], word, None
    if len(word) == 1:
        return None
    if "=" in word:
        name, _, explicit = word.partition("=")
        opt = cmd.by_name(name)
        if opt is not None:
            return opt, name, explicit
    if not word.startswith("--") and word[1] in cmd.by_short:
        return cmd.by_short[word[1]], word[:2], word[2:]
    if _NEGATIVE.match(word) or " " in word:
        return None
    return None, word.partition("=")[0] if word.startswith("--") else word, None


def read(cmd: Command, words: list[Word]) -> Reading:
    """The options ``words`` give, in order, then the words left (the command)."""
    out = Reading()
    kinds = [classify(cmd, w.value) for w in words]
    i = 0
    while i < len(words):
        w, kind = words[i], kinds[i]
        if w.value == "--" or kind is None:
            out.rest = words[i:]
            break
        opt, written, explicit = kind
        i += 1
        if opt is None:
            out.problems.append(
                Problem(
                    "unknown",
                    f"flux {cmd.name} has no option {brief(written)}",
                    w.start,
                    w.start + len(written),
                    name=written,
                )
            )
            continue
        if explicit is not None:
            pending = _explicit(cmd, opt, written, explicit, w, out)
            if pending is None:
                continue
            opt, written = pending  # the last of a group (-vN): its value is the next word
        if opt.value is None:
            out.given.append(Given(opt, w, None, w.end, w.end))
        elif i < len(words) and kinds[i] is None and words[i].value != "--":
            nxt = words[i]
            out.given.append(Given(opt, w, nxt.value, nxt.start, nxt.end))
            i += 1
        elif opt.optional_value:
            out.given.append(Given(opt, w, None, w.end, w.end))
        else:
            out.problems.append(
                Problem(
                    "needs-value",
                    f"{written} needs a value ({opt.value})",
                    w.start,
                    w.end,
                    option=opt,
                )
            )
    return out


def _explicit(
    cmd: Command, opt: Option, written: str, explicit: str, w: Word, out: Reading
) -> tuple[Option, str] | None:
    """``opt`` written ``written`` with ``explicit`` after it in the same word: its value
    (``--opt=VAL``, ``-oVAL``) or, after a short flag, more flags (``-xu``, ``-xN2``).
    Returns (option, written) when the group ends in an option that takes a value
    (``-xN``): the next word is its value, as for ``-N`` alone."""
    at = w.start + len(written) + (1 if written.startswith("--") or explicit == "" else 0)
    if not written.startswith("--") and w.value[2:3] == "=":
        at = w.start + 3
    seen: set[str] = set()
    while True:
        if opt.value is not None:
            _value_in_word(cmd, opt, written, explicit, w, min(at, w.end), out)
            return None
        if written.startswith("--") or explicit == "":
            why = f"{written} takes no value (flux {cmd.name} refuses {brief(explicit)})"
            out.problems.append(Problem("takes-no-value", why, w.start, w.end, option=opt))
            return None
        if opt.long not in seen or opt.action == "count":  # -xxxx: once; -vvv counts
            seen.add(opt.long)
            out.given.append(Given(opt, w, None, w.end, w.end))
        nxt = cmd.by_short.get(explicit[0])
        if nxt is None:
            why = (
                f"{written} takes no value, and -{explicit[0]} is not an option of "
                f"flux {cmd.name}: it refuses {brief(w.value)}"
            )
            out.problems.append(Problem("takes-no-value", why, at, at + 1, option=opt))
            return None
        written, explicit, at = "-" + explicit[0], explicit[1:], at + 1
        if not explicit:
            if nxt.value is None:
                if nxt.long not in seen or nxt.action == "count":
                    out.given.append(Given(nxt, w, None, w.end, w.end))
                return None
            return nxt, written
        opt = nxt


def _value_in_word(
    cmd: Command, opt: Option, written: str, explicit: str, w: Word, at: int, out: Reading
) -> None:
    """``explicit``, from ``at`` in the word ``w``, as the value of ``opt`` (written
    ``written``); a '--' there is none: argparse drops a '--' it is given."""
    if explicit == "--":
        why = (
            f"{written} is given no value: Flux's parser drops the '--' after it "
            f"(flux {cmd.name} then has an empty list for it)"
        )
        out.problems.append(Problem("bad-value", why, w.start, w.end, option=opt))
        return
    out.given.append(Given(opt, w, explicit, at, w.end))
