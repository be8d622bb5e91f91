"""The options of Flux's submission commands, from Flux's own parsers, with the
project's words for each."""

from __future__ import annotations

import contextlib
import contextvars
import functools
import json
from collections.abc import Iterable, Iterator, Mapping

from jobspec_lsp import data_text
from jobspec_lsp.record import Frozen, Record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


class Option(Frozen):
    __slots__ = (
        "long", "short", "value", "doc", "repeat", "optional_value", "aliases", "integer",
        "hidden", "dest", "action", "choices",
    )  # fmt: skip
    long: str  # its first long name, without the dashes
    short: str | None
    value: str | None  # its metavar; None for a flag
    doc: str
    repeat: bool  # append, count or Flux's own accumulating actions
    optional_value: bool  # --dump[=FILE]
    aliases: tuple[str, ...]  # other long names (--broker-opt for --broker-opts)
    integer: bool  # Flux's parser reads the value with int()
    hidden: bool  # left out of --help, but taken
    dest: str
    action: str
    choices: tuple[str, ...] | None  # the values argparse takes (a site plugin's)

    def __init__(
        self,
        long: str,
        short: str | None,
        value: str | None,
        doc: str,
        repeat: bool = False,
        optional_value: bool = False,
        aliases: tuple[str, ...] = (),
        integer: bool = False,
        hidden: bool = False,
        dest: str = "",
        action: str = "store",
        choices: tuple[str, ...] | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "long", long)
        put(self, "short", short)
        put(self, "value", value)
        put(self, "doc", doc)
        put(self, "repeat", repeat)
        put(self, "optional_value", optional_value)
        put(self, "aliases", aliases)
        put(self, "integer", integer)
        put(self, "hidden", hidden)
        put(self, "dest", dest)
        put(self, "action", action)
        put(self, "choices", choices)


# The project's words for each option, by its first long name. Which options exist and
# how Flux reads each is Flux's (flux_options.json); a test fails when an option of any
# command has no words here.
DOCS: dict[str, str] = {
    "nodes": "spread the slots over N nodes (without -n: one slot per node, the nodes exclusive)",
    "nslots": "how many resource slots the instance gets (each -c cores, -g gpus)",
    "cores-per-slot": "cores in each slot (default 1)",
    "gpus-per-slot": "gpus in each slot",
    "ntasks": "how many tasks to start (one slot each)",
    "cores-per-task": "cores for each task (default 1)",
    "gpus-per-task": "gpus for each task",
    "cores": "a total number of cores, the tasks spread over them (not with -n/-c/-g)",
    "tasks-per-node": "start this many tasks on each node (not with -n/-c/-g)",
    "tasks-per-core": "start this many tasks on each core (not with -n/-c/-g)",
    "gpus-per-node": "gpus on each node, with -N (not with -n/-c/-g)",
    "exclusive": "with -N: whole nodes, not only the slots' cores",
    "time-limit": "time limit: minutes when a bare number, else a Flux Standard Duration "
    "(30s, 1.5h, 2d)",
    "queue": "the queue to submit to",
    "bank": "the bank to charge",
    "urgency": "urgency 0-31 (0 holds the job, 31 expedites it; default 16)",
    "job-name": "the job's name (default: the command's name)",
    "setopt": "a job shell option (VAL is JSON, else a string; 1 when absent)",
    "setattr": "a jobspec attribute (system. unless user. or system.; VAL is JSON, else a string)",
    "add-file": "a file put in the job's {{tmpdir}}",
    "dependency": "an RFC 26 dependency (afterok:JOBID, ...)",
    "requires": "RFC 35 constraints (property names, host:, rank:, and/or/not)",
    "begin-time": "do not start before this time",
    "env": "environment rule: PATTERN to copy, VAR=VALUE to set, -PATTERN to remove, "
    "^FILE to read rules",
    "env-remove": "remove environment variables (glob, or /regex/)",
    "env-file": "read environment rules from FILE",
    "rlimit": "which resource limits to copy: NAME[=VALUE], -* for none",
    "unbuffered": "no buffering of output",
    "cwd": "the job's working directory",
    "flags": "submission flags: debug, waitable, novalidate",
    "signal": "a signal before the time limit (default SIGUSR1 60s before)",
    "output": "where standard output goes (batch: default flux-{{id}}.out)",
    "error": "where standard error goes (default: with the output)",
    "input": "a file standard input is read from (run: or the task ranks that get it)",
    "label-io": "prefix each line of output with the rank of the task that wrote it",
    "conf": "configuration of the child instance: KEY=VALUE, a .toml/.json file, a named "
    "configuration, or a multi-line TOML/JSON text",
    "broker-opts": "options for the instance's brokers",
    "add-brokers": "start the instance with this many more brokers than nodes (testing)",
    "dump": "archive the KVS on exit",
    "wrap": "wrap the arguments in a /bin/sh script",
    "dry-run": "print the jobspec instead of submitting (no job is made)",
    "quiet": "do not print the job id (the jobspec is the same)",
    "resources-shape": "an RFC 46 shape as the whole resource request",
    "resources-json": "a file holding the whole resources list (JSON)",
    "debug-emulate": "a job that only pretends to run (testing)",
    "list-plugins": "list the command-line plugins and exit",
    "help": "print help and exit (no job is submitted)",
    "taskmap": "how task ranks map to nodes: block, cyclic[:N], hostfile:FILE, manual:MAP",
    "verbose": "say more on stderr (repeat for more; the jobspec is the same)",
    "wait": "wait for the jobs to finish (the jobspec is the same)",
    "wait-event": "wait for this job event (the jobspec is the same)",
    "watch": "show the jobs' output as they run (the jobspec is the same)",
    "progress": "show a progress bar (the jobspec is the same)",
    "jps": "show jobs per second with --progress (the jobspec is the same)",
    "log": "write the job ids to FILE (the jobspec is the same)",
    "log-stderr": "write standard error to FILE (the jobspec is the same)",
    "cc": "submit copies of the job, one per id of the idset ({cc} in the command)",
    "bcc": "as --cc, without {cc} set in the copies",
    "bg": "start the instance in the background and print its id",
    "define": "define a function NAME for the command template, with Python CODE",
    "sep": "what separates the inputs of one command (default: a line break)",
    "shuffle": "submit the commands in random order",
}


class Command(Frozen):
    """One command's options, as its parser takes them."""

    __slots__ = ("name", "version", "options", "by_long", "by_short", "raw")
    _uncompared = _unshown = ("by_long", "by_short", "raw")
    name: str
    version: str
    options: tuple[Option, ...]
    by_long: dict[str, Option]
    by_short: dict[str, Option]
    raw: dict[str, Any]

    def __init__(
        self,
        name: str,
        version: str,
        options: tuple[Option, ...],
        by_long: dict[str, Option],
        by_short: dict[str, Option],
        raw: dict[str, Any],
    ) -> None:
        put = object.__setattr__
        put(self, "name", name)
        put(self, "version", version)
        put(self, "options", options)
        put(self, "by_long", by_long)
        put(self, "by_short", by_short)
        put(self, "raw", raw)

    def by_name(self, name: str) -> Option | None:
        """``--long`` or ``-s`` exactly (no abbreviation)."""
        if name.startswith("--"):
            return self.by_long.get(name[2:])
        return self.by_short.get(name[1:]) if len(name) == 2 else None


@functools.cache
def versions() -> dict[str, dict[str, Any]]:
    """Flux version -> command -> its parser's description (flux_options.json)."""

    raw = data_text(__package__, "flux_options.json")
    table: dict[str, dict[str, Any]] = json.loads(raw)["versions"]
    return table


def default_version() -> str:
    """The newest Flux in the table (versions compare as numbers: 0.88 < 0.100);
    computed once per table (it is asked for every command line read)."""
    global _newest
    table = versions()
    if _newest is None or _newest[0] is not table:
        _newest = (table, max(table, key=_version_key))
    return _newest[1]


_newest: tuple[dict[str, Any], str] | None = None


def _version_key(v: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else 0 for p in v.split("."))


# The Flux version the options are read for, chosen like --target: the CLI's
# --flux-version, [tool.jobspec] flux-version, the editor's fluxVersion setting. A
# context variable, so two requests of the server (each in its own context) can read
# for two projects' versions at once; unset means the newest in the table.
_SELECTED: contextvars.ContextVar[str | None] = contextvars.ContextVar("flux_version", default=None)


def resolve(version: str) -> str | None:
    """The table's key for ``version``: itself, or the newest key that it names the
    release of (``0.88`` and ``0.88.0`` name ``0.88.0-59-g4a5e79f56``); None when none."""
    if version in versions():
        return version
    matches = [
        k
        for k in versions()
        if k.startswith(version) and k[len(version) : len(version) + 1] in (".", "-")
    ]
    return max(matches, key=_version_key) if matches else None


def version_problem(version: str) -> str | None:
    """Why ``version`` cannot be chosen (None: it can)."""
    if resolve(version) is not None:
        return None
    known = ", ".join(sorted(versions(), key=_version_key))
    return f"Flux {version!r} is not in the option table (it has {known})"


def selected_version() -> str:
    return _SELECTED.get() or default_version()


@contextlib.contextmanager
def using(version: str | None) -> Iterator[None]:
    """Read command lines as Flux ``version`` reads them inside the block (None: the
    newest). ValueError for a version the table does not have."""
    if version is not None:
        key = resolve(version)
        if key is None:
            raise ValueError(version_problem(version))
        version = key
    token = _SELECTED.set(version)
    try:
        yield
    finally:
        _SELECTED.reset(token)


COMMANDS = ("run", "submit", "batch", "alloc", "bulksubmit")


def command(name: str, version: str | None = None) -> Command:
    """The options of `flux NAME` (run, submit, batch, alloc, bulksubmit) in ``version``
    (by default the one chosen with :func:`using`, else the newest in the table), with
    the options :func:`extra_options` puts in force for this command."""
    version = (resolve(version) or version) if version else selected_version()
    extra = _EXTRA.get()
    if extra is None:
        return _command(name, version)
    got = extra.built.get((name, version))
    if got is None:
        got = extra.built[name, version] = _extended(_command(name, version), extra.table)
    return got


# Options a Flux site adds to the submission commands with CLI plugins (see
# jobspec_lsp.site.cliplugins), in force inside `with extra_options(...)`. A context
# variable like the version; unset (None) means Flux's own options only, and command()
# returns the cached table as it always did.
class _Extra(Record):
    __slots__ = ("table", "built")
    table: tuple[tuple[str, tuple[Option, ...]], ...]  # command -> its added options
    built: dict[tuple[str, str], Command]  # (name, version)

    def __init__(self, table: tuple[tuple[str, tuple[Option, ...]], ...]) -> None:
        self.table = table
        self.built = {}


_EXTRA: contextvars.ContextVar[_Extra | None] = contextvars.ContextVar(
    "flux_extra_options", default=None
)


@contextlib.contextmanager
def extra_options(extra: Mapping[str, Iterable[Option]] | None) -> Iterator[None]:
    """Read command lines with ``extra`` (command name -> options Flux adds to it, as a
    site's CLI plugins do) added to the commands' own options inside the block; None or
    an empty mapping: none added. The block's options replace those of an enclosing
    block. An added option whose name the command already has is left out (Flux fails
    on such a plugin; :mod:`jobspec_lsp.site.cliplugins` says so)."""
    given = sorted((extra or {}).items(), key=lambda item: item[0])
    table = tuple((name, tuple(opts)) for name, opts in given if opts)
    token = _EXTRA.set(_Extra(table) if table else None)
    try:
        yield
    finally:
        _EXTRA.reset(token)


def reading_key() -> tuple[str, tuple[tuple[str, tuple[Option, ...]], ...]]:
    """What decides how command lines are read now: the selected version and the extra
    options in force. Hashable, equal for equal choices: a key for caches of readings."""
    extra = _EXTRA.get()
    return selected_version(), extra.table if extra is not None else ()


def _extended(base: Command, table: tuple[tuple[str, tuple[Option, ...]], ...]) -> Command:
    """``base`` with the options ``table`` adds to its command, after its own."""
    added: list[Option] = []
    longs, shorts = set(base.by_long), set(base.by_short)
    for opt in dict(table).get(base.name, ()):
        names = {opt.long, *opt.aliases}
        if names & longs or opt.short in shorts:
            continue
        longs |= names
        shorts |= {opt.short} if opt.short else set()
        added.append(opt)
    if not added:
        return base
    opts = base.options + tuple(added)
    return Command(
        base.name,
        base.version,
        opts,
        {**base.by_long, **{n: o for o in added for n in (o.long, *o.aliases)}},
        {**base.by_short, **{o.short: o for o in added if o.short}},
        base.raw,
    )


@functools.cache
def _command(name: str, version: str) -> Command:
    raw = versions()[version][name]
    options = []
    for o in raw["options"]:
        longs = [n[2:] for n in o["names"] if n.startswith("--")]
        shorts = [n[1:] for n in o["names"] if not n.startswith("--")]
        nargs = o.get("nargs")
        flag = nargs == 0
        options.append(
            Option(
                longs[0],
                shorts[0] if shorts else None,
                None if flag else (o.get("metavar") or o["dest"].upper()),
                DOCS.get(longs[0], ""),
                repeat=o["action"] in ("append", "count", "custom"),
                optional_value=nargs == "?",
                aliases=tuple(longs[1:]),
                integer=o.get("type") == "int",
                hidden=o["hidden"],
                dest=o["dest"],
                action=o["action"],
            )
        )
    opts = tuple(options)
    return Command(
        name,
        version,
        opts,
        {n: o for o in opts for n in (o.long, *o.aliases)},
        {o.short: o for o in opts if o.short},
        raw,
    )
