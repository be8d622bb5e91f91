"""The agent loop of `jobspec mcp` ends with a script real Flux takes (issue 38): a broken
`#flux:` script is checked, fixed, checked again and fixed by hand from the edits the
findings carry until no error is left (tests/mcp_agent.py), then `flux batch --dry-run`
reads it, and prints the jobspec show_jobspec gave (apart from the environment and the
resource limits it copies from the submitter)."""

from __future__ import annotations

import json
import subprocess

from mcp_agent import BROKEN_SCRIPT, agent_loop, session


def test_the_agent_loop_ends_with_a_script_flux_batch_takes(flux_exe, tmp_path):
    job = tmp_path / "job.sh"
    job.write_text(BROKEN_SCRIPT)
    refused = subprocess.run(
        [flux_exe, "batch", "--dry-run", job.name], cwd=tmp_path, capture_output=True, text=True
    )
    assert refused.returncode != 0  # as written, flux batch refuses it

    async def work(s):
        return await agent_loop(s)

    steps = session(tmp_path, work)
    job.write_text(steps["text"])
    proc = subprocess.run(
        [flux_exe, "batch", "--dry-run", job.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    flux = json.loads(proc.stdout)
    system = flux["attributes"]["system"]
    system.pop("environment", None)
    system["shell"]["options"].pop("rlimit", None)
    ours = steps["jobspec"]["jobspec"]
    assert flux == ours
