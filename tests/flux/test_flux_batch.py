"""Batch scripts against real Flux: `jobspec new --from-batch SCRIPT` writes the
jobspec `flux batch --dry-run SCRIPT` prints (apart from the environment and the
resource limits Flux copies from the submitter), the directives read as
flux-core's own `flux.job.directives` reads them, and a script Flux refuses is
one `jobspec check` reports an error for."""

from __future__ import annotations

import ast
import json
import subprocess

import pytest
from batch_cases import RFC36
from helpers import run_cli

from jobspec_lsp.fluxcli import values
from jobspec_lsp.job import directives
from jobspec_lsp.script import batch

# own scripts: the directive block of each (a `#!/bin/sh` line and a body are added)
SCRIPTS = [
    "#flux: -N1",
    "#flux: -N2",
    "#flux: -n1",
    "#flux: -n4",
    "#flux: -n4 -c2",
    "#flux: -n2 -g1",
    "#flux: -N2 -n4",
    "#flux: -N2 -n3",
    "#flux: -N3 -n7 -c2",
    "#flux: -N1 -x",
    "#flux: -N2 -n4 -x",
    "#flux: --nodes=2 --nslots=6 --cores-per-slot=2",
    "#flux: -n1 -t 10",
    "#flux: -n1 -t 1.5h",
    "#flux: -n1 --time-limit=30s",
    "#flux: -n1 -q batch",
    "#flux: -n1 --queue=debug -B lab",
    "#flux: -n1 --job-name=sim",
    "#flux: -n1 --job-name='a b'",
    '#flux: -n1 --job-name="quoted \\"name\\""',
    "#flux: -n1 --cwd=/tmp",
    "#flux: -n1 --output=o.txt --error=e.txt",
    "#flux: -n1 --output=job-{{id}}.out",
    "#flux: -n1 -u",
    "#flux: -n1 -o foo=bar -o baz",
    '#flux: -n1 --setopt=x={"a":1}',
    "#flux: -n1 --setattr=user.k=2 -S foo",
    "#flux: -n1 -S system.bar=[1,2]",
    '#flux: -n1 --setattr=user.data=\'{"option": "arg"}\'',
    "#flux: -n1 --dependency=afterok:123",
    "#flux: -n1 --dependency=afterany:f1234 --dependency=singleton",
    "#flux: -n1 --requires=ssd",
    "#flux: -n1 --requires=host:n[1-3]",
    "#flux: -n1 --requires='rank:0-1 or ssd'",
    "#flux: -n1 --conf=a.b=1",
    "#flux: -n1 --broker-opts=-Sx=1",
    "#flux: -n1 --conf=a.b=1 --broker-opts=-Sx=1",
    "#flux: --resources-shape=slot=2/core",
    "#flux: --resources-shape=node/slot=2/core=2",
    "#flux: -N1 # -n4: commented out",
    "#flux: -N1\n#flux: --job-name=two-lines",
    "#flux: -N1\n# a comment between directives\n#flux: -q batch",
    '#flux: -n1 --setattr=user.conf="""\n#flux: [config]\n#flux:   item = "foo"\n#flux: """',
    "#flux: -n1 --job-name='''It's a \"job\"'''",
    "# flux: -n2 -c2",
    "#FLUX: -n2",
    # read as flux-core's shlex reads them (issue 21): punctuation words, ASCII white space
    # only, the block prefix without its trailing blank, stray words dropped, hidden options
    "#flux: -n1 --job-name=my\u00a0job",
    "#flux: -n1 --requires='a|b' --job-name=\"x;y\"",
    "# flux: -n1\n#no blank after the hash\n# flux: -q batch",
    "#flux: -n1 foo -N2",
    "#flux: -n1 --input=in.txt --label-io -l",
    "#flux: -n1 -N=1 -xu",
    "#flux: -n1 --job-name='it\\'s' --setattr=user.x='a\\\\b'",
    "#flux: -n1 --signal=TERM@5m --rlimit=-*,core=unlimited",
    "#flux: -n1 --dependency=afterok:ƒ2 --dependency=afterany:0x1f",
    '#flux: --resources-shape=slot/"gpu:a100"=2',
]
# scripts flux batch refuses, each for a reason a directive check reports
REFUSED = [
    "#flux: -n1 --job-name='unclosed",
    "#flux: -N1\nhostname\n#flux: -q batch",
    "##flux: -N1\n#flux: -n2",
    "#flux: -n1 --no-such-option",
    "#flux: -N",
    "#flux: -N two",
    "#flux: -n2 -x",
    "#flux: -N4 -n2",
    "#flux: -n1 \\",
    '#flux: -n1 --setattr=x="""\n#flux: a',
    "#flux: --resources-shape=node=2/slot{core=4}",
    "#flux: -n1 --job-n=x",
    "#flux: -n1 --begin-time=25:00",
    "#flux: -n1 --signal=sigterm",
    "#flux: -n1 --rlimit=nofle=1",
    "#flux: -n1 --conf=no-such-named-config",
    "#flux: -n1 --resources-shape=slot/[core;gpu]",
    "#flux: -n1 --setopt=mpi.x=1",
    "#flux: -n1 --job-name='it'\"'\"'s'",
    "#flux: -n1\n#flux: stray",
    "#Flux: -n1",
]


def script(block: str) -> str:
    return "#!/bin/sh\n" + block + "\nflux run hostname\n"


def flux_batch(flux_exe, path, cwd):
    proc = subprocess.run(
        [flux_exe, "batch", "--dry-run", path.name],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )
    if proc.returncode != 0:
        return None, proc.stderr
    js = json.loads(proc.stdout)
    system = js["attributes"]["system"]
    system.pop("environment", None)  # copied from the submitter: a file cannot know them
    system["shell"]["options"].pop("rlimit", None)
    return js, ""


def flux_directives(flux_exe, path) -> list[str] | str:
    proc = subprocess.run(
        [flux_exe, "python", "-m", "flux.job.directives", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if proc.returncode != 0:
        return "error"
    out: list[str] = []
    for line in proc.stdout.splitlines():
        if line.startswith("SETARGS("):
            out.extend(ast.literal_eval(line[len("SETARGS(") : -1]))
    return out


@pytest.mark.flux
@pytest.mark.parametrize("block", SCRIPTS)
def test_from_batch_is_what_flux_batch_builds(flux_exe, tmp_path, block):
    path = tmp_path / "job.sh"
    path.write_text(script(block))
    want, err = flux_batch(flux_exe, path, tmp_path)
    assert want is not None, err
    proc = run_cli("new", "--from-batch", path.name, "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == want
    assert [
        d.code for d in batch.check_script(path.read_text()) if d.severity.label == "error"
    ] == []


@pytest.mark.flux
@pytest.mark.parametrize("block", REFUSED)
def test_a_script_flux_batch_refuses_is_an_error_here(flux_exe, tmp_path, block):
    path = tmp_path / "job.sh"
    path.write_text(script(block))
    want, err = flux_batch(flux_exe, path, tmp_path)
    assert want is None, "flux batch accepted it"
    errors = [d for d in batch.check_script(path.read_text()) if d.severity.label == "error"]
    assert errors, err
    proc = run_cli("new", "--from-batch", path.name, cwd=tmp_path)
    assert proc.returncode == 1


@pytest.mark.flux
@pytest.mark.parametrize("text,words", RFC36)
def test_rfc36_examples_read_as_the_rfc_and_flux_read_them(flux_exe, tmp_path, text, words):
    path = tmp_path / "example"
    path.write_text(text)
    mine = [w.value for w in directives.read(text).words]
    assert mine == words
    assert flux_directives(flux_exe, path) == words


@pytest.mark.flux
@pytest.mark.parametrize("block", SCRIPTS + REFUSED[:3])
def test_directives_read_as_flux_reads_them(flux_exe, tmp_path, block):
    path = tmp_path / "job.sh"
    text = script(block)
    path.write_text(text)
    got = directives.read(text)
    theirs = flux_directives(flux_exe, path)
    if theirs == "error":
        assert got.problems
    else:
        assert [w.value for w in got.words] == theirs


@pytest.mark.flux
def test_a_script_without_a_slot_count_is_refused_unless_the_command_line_gives_one(
    flux_exe, tmp_path
):
    """JS580 is a warning, not an error: the command line may still give -N or -n."""
    path = tmp_path / "job.sh"
    path.write_text(script("#flux: --job-name=x"))
    assert flux_batch(flux_exe, path, tmp_path)[0] is None
    assert [d.code for d in batch.check_script(path.read_text())] == ["JS580"]
    proc = subprocess.run(
        [flux_exe, "batch", "--dry-run", "-n1", path.name], cwd=tmp_path, capture_output=True
    )
    assert proc.returncode == 0


@pytest.mark.flux
def test_urgency_outside_0_to_31_is_refused_at_submission(flux, tmp_path):
    """JS572's --urgency range, as a real instance answers (a dry run does not check it)."""
    path = tmp_path / "job.sh"
    path.write_text(script("#flux: -n1"))
    over = flux.run("batch", "--urgency=32", str(path))
    assert over.returncode != 0
    ok = flux.run("batch", "--urgency=0", str(path))  # held: never runs
    assert ok.returncode == 0, ok.stderr
    flux.run("cancel", ok.stdout.strip())
    found = [d.code for d in batch.check_script(script("#flux: -n1 --urgency=32"))]
    assert found == ["JS572"]


@pytest.mark.flux
def test_urgency_names_are_accepted_at_submission(flux, tmp_path):
    path = tmp_path / "job.sh"
    path.write_text(script("#flux: -n1"))
    held = flux.run("batch", "--urgency=hold", str(path))
    assert held.returncode == 0, held.stderr
    flux.run("cancel", held.stdout.strip())
    assert batch.check_script(script("#flux: -n1 --urgency=hold")) == []


@pytest.mark.flux
def test_begin_time_with_a_t_is_misread_by_flux_so_it_is_an_error_here(flux_exe, tmp_path):
    """flux-core 0.88 reads `2030-01-20T12:34` as another time than `2030-01-20 12:34`
    (JS572 says to write the space)."""

    def stamp(value):
        path = tmp_path / "job.sh"
        path.write_text(script(f"#flux: -n1 --begin-time='{value}'"))
        js, err = flux_batch(flux_exe, path, tmp_path)
        assert js is not None, err
        return float(js["attributes"]["system"]["dependencies"][0]["value"])

    spaced = stamp("2030-01-20 12:34")
    assert stamp("2030-01-20T12:34") != spaced
    assert spaced == values.begin_timestamp("2030-01-20 12:34")
    found = batch.check_script(script("#flux: -n1 --begin-time=2030-01-20T12:34"))
    assert [d.code for d in found] == ["JS572"]
    assert "write '2030-01-20 12:34'" in found[0].message


@pytest.mark.flux
def test_a_flux_run_larger_than_the_batch_job_is_refused_by_flux(flux_exe, tmp_path):
    """JS587's claim, against a real instance of one node (what `#flux: -N1` gives the
    script): `flux run -N2` inside it is refused as unsatisfiable."""
    text = "#!/bin/sh\n#flux: -N1\nflux run -N2 hostname\n"
    (d,) = [d for d in batch.check_script(text) if d.code == "JS587"]
    assert "unsatisfiable" in d.message
    proc = subprocess.run(
        [flux_exe, "start", "--test-size=1", "flux", "run", "-N2", "hostname"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0 and "unsatisfiable" in proc.stderr


@pytest.mark.flux
def test_a_look_alike_sentinel_is_ignored_by_flux(flux_exe, tmp_path):
    """JS565's claim: flux-core reads `flux:` and `FLUX:` only; a `#Flux:` line is a
    comment to it, its options never used."""
    path = tmp_path / "job.sh"
    text = script("#flux: -n1\n#Flux: -N4")
    path.write_text(text)
    assert flux_directives(flux_exe, path) == ["-n1"]
    assert [d.code for d in batch.check_script(text) if d.severity.label == "error"] == ["JS565"]


BARE = [
    "--nodes=2\n--time-limit=10m\n",
    "-N 2\n-n 4\n",
    "--nodes=2\n--ntasks=4\n",  # Slurm's word: flux batch has none
    "  --nslots=2 --job-name=x\n",
]


@pytest.mark.flux
@pytest.mark.parametrize("lines", BARE)
def test_options_on_bare_lines_are_an_error_as_flux_batch_refuses_them(flux_exe, tmp_path, lines):
    """Flux options a language model wrote on lines of their own, without `#flux:`:
    flux batch never reads them and refuses the unsized script; each line is JS566, and
    where it can, its fix makes the directive flux batch then takes."""
    path = tmp_path / "job.sh"
    text = "#!/bin/bash\n" + lines + "flux run hostname\n"
    path.write_text(text)
    assert flux_batch(flux_exe, path, tmp_path)[0] is None
    found = [d for d in batch.check_script(text) if d.code == "JS566"]
    assert len(found) == len(lines.strip().splitlines())
    assert all(d.severity.label == "error" for d in found)
    fixed = run_cli("check", "--fix", "--unsafe-fixes", path.name, cwd=tmp_path)
    if "--ntasks" not in lines:
        assert fixed.returncode == 0, fixed.stdout.decode()
        assert flux_batch(flux_exe, path, tmp_path)[0] is not None


@pytest.mark.flux
@pytest.mark.parametrize(("tool", "refused"), [("submit", True), ("run", False)])
def test_task_ranks_for_input_as_flux_reads_them(flux_exe, tmp_path, tool, refused):
    """JS585 on `flux submit --input 0` in a script, none on `flux run --input 0`: as
    the real commands answer (flux run's dry run builds the jobspec; submit refuses)."""
    proc = subprocess.run(
        [flux_exe, tool, "--dry-run", "--input", "0", "hostname"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert (proc.returncode != 0) == refused, proc.stderr
    if refused:
        assert "per-task input not supported for submit" in proc.stderr
    text = f"#!/bin/sh\nflux {tool} --input 0 hostname\n"
    codes = [d.code for d in batch.check_script(text)]
    assert (codes == ["JS585"]) == refused and (codes == []) == (not refused)
