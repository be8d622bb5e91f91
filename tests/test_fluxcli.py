"""Flux's command line (jobspec_lsp.fluxcli): the option table and the reading of a
command line, held to a real argparse parser built from the same table."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobspec_lsp.fluxcli import argv, model


@pytest.mark.parametrize("name", model.COMMANDS)
def test_every_option_of_every_command_has_the_project_s_words(name):
    cmd = model.command(name)
    assert cmd.options
    assert [o.long for o in cmd.options if not o.doc] == []


def test_the_table_knows_flux_s_hidden_and_plugin_options():
    run = model.command("run")
    assert {"label-io", "input", "resources-shape", "taskmap", "cores"} <= set(run.by_long)
    assert model.command("batch").by_short["l"].long == "label-io"
    assert model.command("submit").by_long["require"].long == "requires"


def _real_parser(cmd: model.Command) -> argparse.ArgumentParser:
    """An argparse parser with the command's options, from the same table, as Flux
    builds its own (no abbreviations), raising instead of exiting."""
    p = argparse.ArgumentParser(allow_abbrev=False, add_help=False, exit_on_error=False)
    for o in cmd.raw["options"]:
        kw: dict = {"dest": o["dest"]}
        if o["action"] == "count":
            kw["action"] = "count"
        elif o.get("nargs") == 0:
            kw["action"] = "store_true"
        elif o["action"] in ("append", "custom"):
            kw["action"] = "append"
        elif o.get("nargs") == "?":
            kw.update(nargs="?", const="CONST")
        p.add_argument(*o["names"], **kw)
    p.add_argument("REST", nargs=argparse.REMAINDER)

    def error(message):
        raise ValueError(message)

    p.error = error  # type: ignore[method-assign]
    return p


PARSERS = {name: _real_parser(model.command(name)) for name in model.COMMANDS}

_WORDS = st.one_of(
    st.sampled_from(
        [
            "-N",
            "-N2",
            "-N=2",
            "-n",
            "-n4",
            "4",
            "-5",
            "-1.5",
            "-xN2",
            "-x",
            "-xu",
            "-xZ",
            "-ux",
            "--exclusive",
            "--exclusive=1",
            "--job-name",
            "--job-n=a",
            "--job-name=a",
            "-q",
            "--dump",
            "--dump=f",
            "-",
            "--",
            "foo",
            "--bogus",
            "-l",
            "--label-io",
            "--broker-opt=x",
            "a b",
            "-a b",
            "--dry",
            "-v",
            "-vv",
            "-vvv",
            "--verbose",
            "--wait",
            "--cc=1-3",
            "--cores",
            "--tasks-per-node=2",
            "-o",
            "-oa=b",
            "-S",
            "--setattr=x=1",
            "--env=A=1",
            "--env-remove",
            "--conf=x=1",
            "-c2",
            "-g",
            "--nslots",
            "--input",
            "--requires=a",
            "--require",
            "-t",
            "5m",
            "--urgency=-1",
            "--begin-time",
            "+1h",
            "-B",
            "=",
            "-=",
            "--=x",
        ]
    ),
    st.text(alphabet="-=xNn2v ", min_size=1, max_size=5),
)


def _mine(cmd: model.Command, words: list[str]):
    reading = argv.read(cmd, [argv.Word(w, 0, len(w)) for w in words])
    if reading.problems:
        return None
    out: dict = {}
    for g in reading.given:
        o = g.option
        if o.action == "count":
            out[o.dest] = out.get(o.dest, 0) + 1
        elif o.value is None:
            out[o.dest] = True
        else:
            value = "CONST" if g.value is None else g.value
            if o.repeat:
                out.setdefault(o.dest, []).append(value)
            else:
                out[o.dest] = value
    rest = [w.value for w in reading.rest]
    return out, rest


def _theirs(name: str, words: list[str]):
    try:
        ns = vars(PARSERS[name].parse_args(words))
    except (ValueError, argparse.ArgumentError):
        return None
    rest = ns.pop("REST")
    for o in model.command(name).raw["options"]:
        if ns.get(o["dest"]) == [] and o["action"] not in ("append", "custom"):
            return None  # '-N--': argparse stores an empty list, on which Flux fails
    return {k: v for k, v in ns.items() if v not in (None, False, [], 0)}, rest


@settings(max_examples=10_000, deadline=None)
@given(st.sampled_from(model.COMMANDS), st.lists(_WORDS, max_size=6))
def test_a_command_line_is_read_as_argparse_reads_it(name, words):
    """The reading (each option's values, the words left for the command, or a refusal)
    equals a real argparse parser's: abbreviations, '=' forms, grouped short flags,
    values that start with '-', negative numbers, '--', repeated and counted options,
    optional values; 10,000 vectors over the five commands."""
    mine = _mine(model.command(name), words)
    theirs = _theirs(name, words)
    assert mine == theirs


@pytest.mark.parametrize(
    ("value", "refused"),
    [("999999999d", False), ("1000000000d", True), ("1440000000000m", True),
     ("1e20s", False), ("86400000000000001ms", True), ("9999999999999999999", False)],
)  # fmt: skip
def test_time_limits_flux_cannot_read_through_timedelta(value, refused):
    from jobspec_lsp.fluxcli.values import Refused, parse_time_limit

    if refused:
        with pytest.raises(Refused, match="10\\^9 days"):
            parse_time_limit(value)
    else:
        parse_time_limit(value)
