"""What the real-Flux comparisons share: asking flux-core's own commands (cliside.py)
and leaving out what Flux copies from the submitting process before comparing."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent


def ask_flux(
    flux_exe: str,
    mode: str,
    items: list,
    timeout: int = 900,
    cwd: str | None = None,
    environ: dict[str, str] | None = None,
) -> list[dict]:
    """{"ok", "jobspec"|"error"} for each item, from `flux python cliside.py MODE`
    (``submit``: lists of words; ``batch``: script texts), submitted from ``cwd`` (else
    a scratch directory) with ``environ`` as the submitting environment (else this one)."""
    env = dict(os.environ)
    if cwd is not None:
        env["JOBSPEC_CLISIDE_CWD"] = cwd
    if environ is not None:
        env["JOBSPEC_CLISIDE_ENVIRON"] = json.dumps(environ)
    proc = subprocess.run(
        [flux_exe, "python", str(HERE / "cliside.py"), mode],
        input="".join(json.dumps(i) + "\n" for i in items),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == len(items)
    return out


def strip_submitter(js: dict) -> dict:
    """``js`` without what Flux copies from the submitting process (environment,
    working directory, resource limits); a begin time held as a `_Clock`, equal to
    another within two minutes, since each side reads the clock itself (rounding both
    to the minute still disagrees when the two reads straddle a minute)."""
    system = js.get("attributes", {}).get("system", {})
    system.pop("environment", None)
    system.pop("cwd", None)
    options = system.get("shell", {}).get("options", {})
    options.pop("rlimit", None)
    if "shell" in system and not options:
        system.pop("shell")
    for dep in system.get("dependencies", []):
        if dep.get("scheme") == "begin-time":
            dep["value"] = _Clock(dep["value"])
    return js


class _Clock(float):
    """A begin time read from two clocks: equal when within two minutes."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (int, float)) and abs(float(self) - float(other)) < 120

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = float.__hash__
