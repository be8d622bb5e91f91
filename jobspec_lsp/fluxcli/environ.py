"""The environment rules of `flux submit` and `flux batch` (``--env``, ``--env-remove``
as ``-PATTERN``, ``--env-file`` as ``^FILE``), applied in order as flux-core applies
them (``get_filtered_environment``):

- ``-PATTERN`` removes the variables the environment built so far has whose names
  match: a shell glob, or a ``/regex/`` (matched from the name's start);
- ``^FILE`` reads more rules from FILE, one a line (blanks around each dropped);
- ``NAME`` alone (a glob or ``/regex/``) copies the matching variables of the
  submitter's environment that are not set yet;
- ``NAME=VALUE`` sets NAME, ``$VAR`` and ``${VAR}`` in VALUE taken from the environment
  built so far, else the submitter's (``$$`` is a dollar sign); a VALUE holding ``{{``
  is a template the job shell expands, kept apart (``shell.options.env-expand``).

Flux starts from a copy of the whole submitting environment; `jobspec new` starts from
none (a jobspec file is meant to run elsewhere) and takes from the submitter's only
what a rule names (a ``NAME`` rule, a ``$VAR`` not set by an earlier rule), saying so.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Mapping

from jobspec_lsp.fluxcli.argv import brief
from jobspec_lsp.fluxcli.values import Refused

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from collections.abc import Iterator

_MAX_FILES = 16  # rule files read from rule files: Flux recurses until Python stops it


class Rules:
    """The result of a list of rules: the environment, the templates for the job
    shell, and what was taken from the submitter (for notes)."""

    __slots__ = ("environment", "expand", "notes")

    def __init__(self) -> None:
        self.environment: dict[str, str] = {}
        self.expand: dict[str, str] = {}
        self.notes: list[str] = []


def apply(
    rules: list[str],
    source: Mapping[str, str] | None = None,
    read_files: bool | None = True,
    cwd: str | None = None,
) -> Rules:
    """``rules`` applied in order to an empty environment; ``source`` is the submitter's
    environment (``os.environ`` when None). ``^FILE`` rules are read (relative to
    ``cwd``, else the current directory) when ``read_files``; None leaves them out,
    False refuses them. :class:`Refused` for what Flux refuses."""
    out = Rules()
    _apply(rules, out, os.environ if source is None else source, read_files, cwd, 0)
    return out


def _apply(
    rules: list[str],
    out: Rules,
    source: Mapping[str, str],
    read_files: bool | None,
    cwd: str | None,
    depth: int,
) -> None:
    for rule in rules:
        if rule.startswith("-"):
            pattern = _pattern(rule[1:], rule)  # read even when there is nothing to remove
            kept = {k: v for k, v in out.environment.items() if not pattern.match(k)}
            if len(kept) == len(out.environment):
                out.notes.append(
                    f"--env {brief(rule)} removes nothing here: jobspec new starts from an "
                    "empty environment (flux submit removes it from its copy of yours)"
                )
            out.environment = kept
        elif rule.startswith("^"):
            lines = _rule_file(rule, read_files, cwd, depth)
            if lines is not None:
                _apply(lines, out, source, read_files, cwd, depth + 1)
        elif "=" not in rule:
            _copy(rule, out, source)
        else:
            name, _, value = rule.partition("=")
            if "{{" in value:  # the job shell expands it
                out.expand[name] = value
            else:
                out.environment[name] = _substitute(rule, value, out, source)


def _pattern(pattern: str, rule: str) -> re.Pattern[str]:
    text = pattern[1:].rstrip("/") if pattern.startswith("/") else fnmatch.translate(pattern)
    try:
        return re.compile(text)
    except (re.error, RecursionError, OverflowError) as err:
        raise Refused(
            f"--env {brief(rule)}: not a regular expression Flux can read ({err})"
        ) from None


def _copy(rule: str, out: Rules, source: Mapping[str, str]) -> None:
    """A ``NAME`` rule: the submitter's matching variables not set yet."""
    pattern = _pattern(rule, rule)
    taken = [k for k in source if pattern.match(k) and k not in out.environment]
    for k in taken:
        out.environment[k] = source[k]
    if taken:
        names = ", ".join(taken[:5]) + (f" and {len(taken) - 5} more" if len(taken) > 5 else "")
        out.notes.append(f"--env {brief(rule)}: {names} copied from your environment")
    else:
        out.notes.append(f"--env {brief(rule)}: no variable of your environment matches")


def _substitute(rule: str, value: str, out: Rules, source: Mapping[str, str]) -> str:
    """``value`` with its ``$VAR`` replaced as Flux replaces them (string.Template)."""
    import string  # deferred: start-up; only for an --env value

    lookup = _Lookup(out.environment, source)
    try:
        text = string.Template(value).substitute(lookup)
    except ValueError:
        raise Refused(
            f"--env {brief(rule)}: Flux cannot substitute the value (a '$' must start a "
            "variable name, $NAME or ${NAME}; write $$ for a dollar sign)"
        ) from None
    except KeyError as err:
        raise Refused(
            f"--env {brief(rule)}: ${err.args[0]} is set neither by an earlier rule nor in "
            "your environment (Flux refuses it: variable not found)"
        ) from None
    if lookup.taken:
        names = ", ".join(f"${k}" for k in dict.fromkeys(lookup.taken))
        out.notes.append(f"--env {brief(rule)}: {names} taken from your environment")
    return text


class _Lookup(Mapping[str, str]):
    """The environment built so far, then the submitter's; remembers what came from
    the submitter's."""

    def __init__(self, built: dict[str, str], source: Mapping[str, str]) -> None:
        self.built = built
        self.source = source
        self.taken: list[str] = []

    def __getitem__(self, key: str) -> str:
        if key in self.built:
            return self.built[key]
        value = self.source[key]  # KeyError: Flux's "variable not found"
        self.taken.append(key)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter({**self.source, **self.built})

    def __len__(self) -> int:
        return len({**self.source, **self.built})


def _rule_file(rule: str, read_files: bool | None, cwd: str | None, depth: int) -> list[str] | None:
    """The rules of ``^FILE``, each line stripped; None when files are left out."""
    if not read_files:
        if read_files is None:
            return None
        raise Refused(
            f"--env {brief(rule)}: the rules are read from the file when the job is "
            "submitted; this view does not read files the editor has not opened",
            ours=True,
        )
    if depth >= _MAX_FILES:
        raise Refused(f"--env {brief(rule)}: rule files read each other without end")
    path = os.path.join(cwd or os.getcwd(), os.path.expanduser(rule[1:]))
    try:
        with open(path, encoding="utf-8") as f:
            return [line.strip() for line in f]
    except (OSError, UnicodeDecodeError) as err:
        why = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        raise Refused(f"--env {brief(rule)}: {why}: {rule[1:]!r} (Flux refuses it)") from None


def expand_only(rules: list[str]) -> dict[str, str]:
    """The job shell's templates (``NAME=...{{...}}``) of ``rules`` given directly,
    in order (what `flux batch` writes to ``env-expand`` whatever the environment)."""
    out: dict[str, str] = {}
    for rule in rules:
        name, eq, value = rule.partition("=")
        if eq and rule[:1] not in ("-", "^") and "{{" in value:
            out[name] = value
    return out
