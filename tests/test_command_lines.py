"""`flux run|submit|alloc|batch|bulksubmit` lines in a script's body (issue 22, in part):
found where a command stands, split as the shell splits them with their ranges, read
with the command's own option table, values checked, sizes held to the allocation."""

from __future__ import annotations

import pytest
from helpers import run_cli

from jobspec_lsp.features import fixes
from jobspec_lsp.fluxcli import shell
from jobspec_lsp.jobspec.tree import Document
from jobspec_lsp.script import assist, batch
from jobspec_lsp.text.positions import LineIndex


def findings(text: str):
    return [
        (d.code, text[d.start : d.end])
        for d in batch.check_script(text)
        if d.code in ("JS584", "JS585", "JS586", "JS587")
    ]


def test_words_keep_their_ranges_across_quotes_and_continued_lines():
    text = "flux run -N2 --job-name 'a b' \\\n   -n \"4\" ./app --x # done\n"
    (cl,) = shell.find(text)
    assert [w.value for w in cl.words] == ["-N2", "--job-name", "a b", "-n", "4", "./app", "--x"]
    assert [text[w.start : w.end] for w in cl.words][2:5] == ["'a b'", "-n", '"4"']


@pytest.mark.parametrize(
    "line",
    [
        "echo flux run -N9 ./a",
        "# flux run -N9 ./a",
        "echo 'flux run -N9 ./a'",
        "cat <<'EOF'\nflux run -N9 ./a\nEOF",
        "myflux run -N9",
    ],
)
def test_only_commands_are_read(line):
    assert findings(f"#!/bin/sh\n#flux: -N2\n{line}\n") == []


@pytest.mark.parametrize(
    "line,found",
    [
        ("flux run --ntask=8 ./a", [("JS584", "--ntask")]),
        ("flux submit -n eight ./a", [("JS585", "eight")]),
        ("flux run -t 5x ./a", [("JS585", "5x")]),
        ("flux run -N4 ./a", [("JS587", "4")]),
        ("flux mini run -n2 ./a", [("JS586", "mini ")]),
        ("x=1 flux run --bogus ./a; flux alloc -N1", [("JS584", "--bogus")]),
        ("srun -n1 ./b && flux run --job-n=x ./a", [("JS584", "--job-n")]),
        ("flux run -n $NTASKS ./a", []),
        ("flux run $OPTS -N 9 ./a", []),
        ('flux run --dependency="afterok:$PREV" ./a', []),
        ("flux run -N2 -n8 ./a -N 99", []),  # the command's own options are its own
        ("flux batch -N1 job.sh", []),
    ],
)
def test_command_line_findings(line, found):
    assert findings(f"#!/bin/sh\n#flux: -N2\n{line}\n") == found


def test_an_abbreviation_and_the_mini_form_are_fixed():
    text = "#!/bin/sh\n#flux: -N2\nflux mini run --job-n=x ./a\n"
    doc = Document(text, LineIndex(text), None, [], "script")
    out = text
    for d in sorted(batch.check_script(text), key=lambda d: -d.start):
        if d.code in ("JS584", "JS586"):
            (fix,) = fixes.fixes_for(doc, d)
            (e,) = fix.edits
            out = out[: e.start] + e.text + out[e.end :]
    assert out == "#!/bin/sh\n#flux: -N2\nflux run --job-name=x ./a\n"


def test_check_reports_them_in_a_plain_shell_script(tmp_path):
    f = tmp_path / "run.sh"
    f.write_text("#!/bin/bash\nflux submit --nodes=two ./app\n")
    proc = run_cli("check", f)
    assert proc.returncode == 1
    assert f"{f}:2:21: error[JS585]" in proc.stdout.decode()


SCRIPT = "#!/bin/sh\n#flux: -N2\nflux run -N2 -n $NT --time-limit=1h ./a\nflux submit --qu\n"


def test_hover_on_a_command_line():
    md, a, b = assist.hover_at(SCRIPT, SCRIPT.index("run -N2") + 1)
    assert SCRIPT[a:b] == "flux run" and "waits for it to end" in md
    md, a, b = assist.hover_at(SCRIPT, SCRIPT.index("$NT"))
    assert SCRIPT[a:b] == "-n $NT" and "known only when the script runs" in md
    md, a, b = assist.hover_at(SCRIPT, SCRIPT.index("--time-limit") + 3)
    assert SCRIPT[a:b] == "--time-limit=1h" and "a time limit of 1h" in md


def test_completion_on_a_command_line():
    at = SCRIPT.index("--qu") + 4
    found, a, b = assist.complete_at(SCRIPT, at)
    assert [c.label for c in found] == ["--queue", "--quiet"] and SCRIPT[a:b] == "--qu"
    # after the command's own program, the words are the job's: nothing offered
    text = "#!/bin/sh\nflux run -n2 ./a --"
    assert assist.complete_at(text, len(text))[0] == []
    # flux run's options, not flux batch's (-n is --ntasks there)
    text = "#!/bin/sh\nflux run --nta"
    assert [c.label for c in assist.complete_at(text, len(text))[0]] == ["--ntasks"]


def test_body_findings_do_not_stop_new_from_batch():
    """Real material (script 047): flux batch submits a script whose body has a `flux mini
    run` line; check reports the line, and the jobspec is still built."""
    text = "#!/bin/sh\n#flux: -N 2\n#flux: -n 4\nflux mini run -n4 ./a\n"
    assert [c for c, _ in findings(text)] == ["JS586"]
    assert batch.jobspec(text, "job.sh", "/")["resources"][0]["count"] == 2


def test_an_empty_job_name_is_taken_as_flux_takes_it():
    """Real material (script 048): `--job-name=<name>` leaves an empty name after Flux's
    reader splits `<` and `>` off; Flux submits the job without a name."""
    text = "#!/bin/sh\n#FLUX: -N1\n#FLUX: --job-name=<simulation_name>\nhostname\n"
    assert [d.code for d in batch.check_script(text) if d.severity == batch.E] == []
    assert batch.jobspec(text, "job.sh", "/")["attributes"]["system"]["job"]["name"] == ""


def test_a_line_asking_for_more_cores_than_the_slots_hold_is_a_warning_at_its_count():
    text = "#!/bin/sh\n#flux: -N2 -n8 -c2\nflux run -n8 -c4 ./a\nflux run -n17 ./b\nflux run -n4 -c4 ./ok\n"
    found = [d for d in batch.command_line_checks(text) if d.code == "JS588"]
    assert [(text[d.start : d.end], d.severity.name) for d in found] == [
        ("8", "WARNING"),
        ("17", "WARNING"),
    ]
    assert (
        "asks for 32 cores" in found[0].message
        and "allocate 16 (2 nodes x 4 slots of 2 cores)" in found[0].message
    )


@pytest.mark.parametrize(
    "directives, line",
    [
        ("-N2", "flux run -n128 ./a"),  # -N alone: whole nodes, their size unknown here
        ("-n8 -x -N1", "flux run -n128 ./a"),  # exclusive: whole nodes
        ("-n8", "flux run -n $N ./a"),  # a shell expansion: not judged
        ("-n8", "flux run --cores=16 ./a"),  # per-resource: not -n x -c
        ("-n8", "flux run -N1 ./a"),  # nodes: JS587's business
        ("--resources-shape=slot=8/core", "flux run -n128 ./a"),
    ],
)
def test_cores_are_judged_only_where_both_sides_say_them(directives, line):
    text = f"#!/bin/sh\n#flux: {directives}\n{line}\n"
    assert [d for d in batch.command_line_checks(text) if d.code == "JS588"] == []


def test_gpus_beyond_the_slots_are_said_too():
    text = "#!/bin/sh\n#flux: -n2 -g1\nflux run -n2 -g2 ./a\n"
    (d,) = [d for d in batch.command_line_checks(text) if d.code == "JS588"]
    assert "asks for 4 GPUs" in d.message and text[d.start : d.end] == "2"


def test_slots_spread_over_nodes_count_as_flux_lays_them_out():
    """-N2 -n3 gives each node ceil(3/2) = 2 slots, 4 in all (flux-core's layout): a
    line asking for 4 cores fits, 5 do not (found in review)."""
    text = "#!/bin/sh\n#flux: -N2 -n3\nflux run -n4 ./a\nflux run -n5 ./b\n"
    found = [d for d in batch.command_line_checks(text) if d.code == "JS588"]
    assert [text[d.start : d.end] for d in found] == ["5"]


def test_lines_this_job_does_not_run_are_not_held_to_its_size():
    text = (
        "#!/bin/sh\n#flux: -N1 -n2\n"
        "cat > sub.sh <<EOF\nflux run -N4 -n 128 ./a\nEOF\n"  # written to a file
        "cat > sub2.sh <<'EOF'\nflux run -n 128 ./a\nEOF\n"  # a name ending in .sh is no shell
        "FLUX_URI=$OTHER flux run -N4 -n 128 ./a\n"  # another instance
        "bash <<EOF\nflux run -n 128 ./c\nEOF\n"  # a shell runs this one
    )
    found = [(d.code, text[d.start : d.end]) for d in batch.command_line_checks(text)]
    assert found == [("JS588", "128")]
    assert text.rindex("128") == next(d.start for d in batch.command_line_checks(text))
