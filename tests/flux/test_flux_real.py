"""Real material, written by nobody here (issue 22): `#flux:` batch scripts and
`flux submit|run` command lines collected from public repositories (tests/data/real;
SOURCES.md gives each one's origin), each given to flux-core's own code
(tests/flux/cliside.py: what `flux batch --dry-run` and `flux submit --dry-run` print;
a `flux run` line is read with submit's options, as the two share them) and to this
tool: `jobspec check`'s errors and `jobspec new --from-batch` for a script,
`jobspec new`'s reading of the words for a command line.

Unlike the generated campaigns, agreement is not required item by item: real material
holds mistakes Flux itself lets through. Where Flux's dry run prints a jobspec and this
tool refuses, an instance is asked whether the submission is refused too (a script is
submitted by `flux batch --begin-time=+100d`, a command line's jobspec with urgency 0,
both cancelled at once; the instance has every queue the material names, so that a
site's queue is no reason to refuse). Every disagreement is printed, and the figures must be the ones
docs/compatibility.md states, so the tier fails when one changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from conftest import Flux
from flux_compare import ask_flux, strip_submitter

from jobspec_lsp import convert
from jobspec_lsp.script import batch

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "real"
SLOTS = "Number of slots to allocate must be specified"


def _script_here(text: str) -> dict:
    try:
        return {"ok": True, "jobspec": json.loads(json.dumps(batch.jobspec(text, "job.sh", "/")))}
    except batch.BatchError as err:
        return {"ok": False, "error": str(err)}


def _words_here(words: list[str]) -> dict:
    try:
        conv = convert.from_command_line(list(words))
    except convert.UsageError as err:
        return {"ok": False, "error": str(err)}
    if not conv.ok:
        return {"ok": False, "error": "; ".join(d.message for d in conv.blockers)}
    return {"ok": True, "jobspec": json.loads(json.dumps(yaml.safe_load(conv.text)))}


def _instance(flux_exe: str, jobspecs: list[dict]) -> Flux:
    """A one-broker instance with every queue the jobspecs name (the first the default)."""
    queues = sorted({js["attributes"]["system"].get("queue") for js in jobspecs} - {None, ""})
    config = None
    if queues:
        tables = "".join(f"[queues.{json.dumps(q)}]\n" for q in queues)
        default = f"[policy.jobspec.defaults.system]\nqueue = {json.dumps(queues[0])}\n"
        config = {"queues.toml": tables + default}
    return Flux(flux_exe, config)


def _last_line(message: str) -> str:
    return message.strip().splitlines()[-1][:160] if message.strip() else ""


def _batch_submitted(instance: Flux, path: Path) -> tuple[bool, str]:
    """Whether `flux batch` submits the script; a job it makes waits and is cancelled."""
    proc = instance.run("batch", "--begin-time=+100d", path)
    if proc.returncode != 0:
        return False, _last_line(proc.stderr) or "refused"
    instance.run("cancel", proc.stdout.strip())
    return True, ""


@pytest.mark.flux
def test_real_scripts_and_command_lines_against_flux(flux_exe, tmp_path):
    paths = sorted((DATA / "scripts").glob("*.sh"))
    texts = [p.read_text(encoding="utf-8") for p in paths]
    lines = json.loads((DATA / "command_lines.json").read_text(encoding="utf-8"))
    assert len(texts) >= 40 and len(lines) >= 45

    flux_scripts = ask_flux(flux_exe, "batch", texts)
    flux_lines = ask_flux(flux_exe, "submit", [c["argv"] for c in lines])

    notes: dict[str, list[str]] = {}  # each disagreement, by item, in the order met
    # scripts: check's errors and new --from-batch against flux batch
    check_agrees = new_builds = 0
    refused_here: list[tuple[str, str, str]] = []  # (file, what this tool says, text)
    for path, text, theirs in zip(paths, texts, flux_scripts):
        key = f"script {path.name}"
        ours = _script_here(text)
        found = batch.check_script(text)
        errors = [d for d in found if d.severity == batch.E]
        if theirs["ok"]:
            if errors:
                d = errors[0]
                notes.setdefault(key, []).append(
                    f"flux batch --dry-run accepts it; check: {d.code} {d.message}"
                )
            else:
                check_agrees += 1
            if not ours["ok"]:
                refused_here.append((key, ours["error"], text))
            elif strip_submitter(theirs["jobspec"]) != strip_submitter(ours["jobspec"]):
                notes.setdefault(key, []).append("new --from-batch builds another jobspec")
            else:
                new_builds += 1
        else:
            # a missing -N/-n is a warning in check (JS580): the command line may give it
            if errors or (SLOTS in theirs["error"] and any(d.code == "JS580" for d in found)):
                check_agrees += 1
            else:
                notes.setdefault(key, []).append(
                    f"flux batch refuses it ({_last_line(theirs['error'])}); check reports no error"
                )
            if ours["ok"]:
                notes.setdefault(key, []).append("new --from-batch builds a jobspec")

    # command lines: jobspec new against flux submit (a flux run line read as submit)
    line_builds = 0
    line_refused: list[tuple[str, str, dict]] = []  # (line, what new says, Flux's jobspec)
    for entry, theirs in zip(lines, flux_lines):
        key = f"flux {entry['command']} {' '.join(entry['argv'])}"
        ours = _words_here(entry["argv"])
        if theirs["ok"] and not ours["ok"]:
            line_refused.append((key, ours["error"], theirs["jobspec"]))
        elif theirs["ok"] != ours["ok"]:
            notes.setdefault(key, []).append(
                f"flux submit refuses it ({_last_line(theirs['error'])}); new accepts it"
            )
        elif theirs["ok"]:
            if strip_submitter(theirs["jobspec"]) != strip_submitter(ours["jobspec"]):
                notes.setdefault(key, []).append("new builds another jobspec")
            else:
                line_builds += 1

    # what Flux's dry run prints and this tool refuses: does the submission take it?
    by_key = {f"script {p.name}": t for p, t in zip(paths, flux_scripts)}
    named = [by_key[k]["jobspec"] for k, _, _ in refused_here]
    named += [js for _, _, js in line_refused]
    scripts_at_submission = lines_at_submission = 0
    if named:
        instance = _instance(flux_exe, named)
        try:
            for key, why, text in refused_here:
                path = tmp_path / key.split()[-1]
                path.write_text(text, encoding="utf-8")
                taken, error = _batch_submitted(instance, path)
                scripts_at_submission += not taken
                notes.setdefault(key, []).append(
                    f"new --from-batch refuses it ({why}) where the dry run prints one; "
                    + (
                        "the submission is accepted"
                        if taken
                        else f"the submission is refused: {error}"
                    )
                )
            verdicts = instance.submit([json.dumps(js) for _, _, js in line_refused])
            for (key, why, _), v in zip(line_refused, verdicts):
                lines_at_submission += not v["ok"]
                notes.setdefault(key, []).append(
                    f"flux submit --dry-run accepts it; new refuses it ({why}); "
                    + (
                        "the submission is accepted"
                        if v["ok"]
                        else f"the submission is refused: {_last_line(v['error'])}"
                    )
                )
        finally:
            instance.close()

    flux_ok = sum(t["ok"] for t in flux_scripts)
    lines_ok = sum(t["ok"] for t in flux_lines)
    line = (
        f"real material: {len(texts)} scripts: check agrees with flux batch on {check_agrees}, "
        f"new --from-batch builds Flux's jobspec for {new_builds} of the {flux_ok} flux batch accepts "
        f"and refuses {len(refused_here)} ({scripts_at_submission} refused at submission too); "
        f"{len(lines)} command lines: new builds Flux's jobspec for {line_builds} of the "
        f"{lines_ok} flux submit accepts and refuses {len(line_refused)} "
        f"({lines_at_submission} refused at submission too)"
    )
    print(line)
    for key, said in notes.items():
        print(f"  {key}: " + "; ".join(said))
    doc = (HERE.parents[1] / "docs" / "compatibility.md").read_text(encoding="utf-8")
    assert line in doc, f"docs/compatibility.md does not say what was measured: {line}"
