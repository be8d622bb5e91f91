"""The Flux side of the site comparison: what a real Flux instance, configured from a
site profile (a conf.d directory with its R), says to each submission.

``flux_verdicts(flux_exe, site_dir, requests)`` starts ONE one-broker instance the way
research-notes/site/start-site.sh does (a copy of ``site_dir`` as cwd, so a relative
``[resource] path`` resolves; ``flux broker --setattr=hostlist=<R's nodelist>
--config-path=<copy>``, so host constraints are checked against the site's hosts), and
runs ONE ``flux python site_submit.py`` in it, which submits every request with urgency 0
and records the outcome. A request is ``{"argv": [...]}`` (the words after ``flux
submit``, built into a jobspec by flux-core's own SubmitCmd in that process) or
``{"jobspec": {...}}`` (sent as its JSON encoding). A verdict is
``{"accepted": True, "jobid": N, "stage": None}`` or ``{"accepted": False, "errno": N,
"message": "...", "stage": "cli"|"ingest"|"limit"|"queue"}`` (see site_submit.py).

If the instance does not start, or does not answer in time, ``SiteInstanceError`` (an
AssertionError) says so with the tail of the instance's output; no process is left
behind either way. ``run_in_site(flux_exe, site_dir, command)`` is the launcher alone:
any command as the instance's initial program, its output returned.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "site_submit.py"

# variables that would make the new broker think it runs inside another instance or job
_INHERITED = ("FLUX_URI", "FLUX_JOB_ID", "FLUX_KVS_NAMESPACE", "PMI_FD", "PMI_RANK", "PMI_SIZE")


class SiteInstanceError(AssertionError):
    """The site instance failed to start, crashed, or did not answer in time."""


def _flux(flux_exe: str, *args: str, stdin: str | None = None, cwd: Path | None = None) -> str:
    got = subprocess.run(
        [flux_exe, *args], input=stdin, capture_output=True, text=True, timeout=60, cwd=cwd
    )
    if got.returncode != 0:
        raise SiteInstanceError(f"flux {' '.join(args)} failed: {got.stderr.strip()}")
    return got.stdout


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _kill_group(proc: subprocess.Popen) -> None:
    """The instance and everything it started (its own session): TERM, then KILL."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if not _group_alive(proc.pid):
            break
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + 10
        while _group_alive(proc.pid) and time.monotonic() < deadline:
            proc.poll()  # reap the leader, or the group never empties
            time.sleep(0.05)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        pass


def run_in_site(
    flux_exe: str,
    site_dir: str | os.PathLike,
    command: list[str],
    timeout: float = 300,
    work: Path | None = None,
) -> str:
    """Run ``command`` as the initial program of one instance configured by ``site_dir``;
    return the instance's output (stdout and stderr, the command's included). Raises
    SiteInstanceError if it does not start, the command fails, or ``timeout`` (which
    bounds start, command and shutdown) passes. ``work``: a scratch directory (made and
    removed here if not given); the profile is copied to ``work/site``, the cwd."""
    own = work is None
    work = Path(tempfile.mkdtemp(prefix="jobspec-site-")) if own else Path(work)
    try:
        site = work / "site"
        shutil.copytree(site_dir, site)
        rpath = _flux(
            flux_exe, "config", "get", "-c", str(site), "-q", "-d", "", "-t", "string",
            "resource.path",
        ).strip()  # fmt: skip
        extra = []
        if rpath:
            r = Path(rpath) if Path(rpath).is_absolute() else site / rpath
            hosts = _flux(flux_exe, "R", "decode", "--nodelist", stdin=r.read_text()).strip()
            if hosts:
                extra.append(f"--setattr=hostlist={hosts}")
        log = work / "instance.log"
        env = {k: v for k, v in os.environ.items() if k not in _INHERITED}
        started = time.monotonic()
        with open(log, "wb") as logf:
            proc = subprocess.Popen(
                [flux_exe, "broker", *extra, f"--config-path={site}", *command],
                cwd=site,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=logf,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            try:
                rc = proc.wait(timeout)
            except subprocess.TimeoutExpired:
                rc = None
            finally:
                _kill_group(proc)
        elapsed = time.monotonic() - started
        text = log.read_text(errors="replace")
        if rc is None:
            raise SiteInstanceError(
                f"site instance for {site_dir} still running after {timeout} s; "
                f"its output:\n{text[-4000:]}"
            )
        if rc != 0:
            raise SiteInstanceError(
                f"site instance for {site_dir} failed (exit {rc}, {elapsed:.1f} s); "
                f"its output:\n{text[-4000:]}"
            )
        return text
    finally:
        if own:
            shutil.rmtree(work, ignore_errors=True)


def flux_verdicts(
    flux_exe: str, site_dir: str | os.PathLike, requests: list[dict], timeout: float = 300
) -> list[dict]:
    """Flux's verdict on each request, in order, from one instance configured by
    ``site_dir``. ``timeout`` bounds the whole run (start, submissions, shutdown)."""
    if not requests:
        return []
    work = Path(tempfile.mkdtemp(prefix="jobspec-site-"))
    try:
        inp, outp = work / "requests.jsonl", work / "verdicts.jsonl"
        inp.write_text("".join(json.dumps(req) + "\n" for req in requests), encoding="utf-8")
        answer_within = str(max(timeout - 30, 10))  # leaves time to start and stop
        text = run_in_site(
            flux_exe,
            site_dir,
            [flux_exe, "python", str(SCRIPT), str(inp), str(outp), answer_within],
            timeout,
            work,
        )
        lines = outp.read_text().splitlines() if outp.exists() else []
        verdicts = [json.loads(line) for line in lines]
        if len(verdicts) != len(requests) or any(v is None for v in verdicts):
            raise SiteInstanceError(
                f"site instance for {site_dir}: {len(verdicts)} verdicts for "
                f"{len(requests)} requests; its output:\n{text[-4000:]}"
            )
        return verdicts
    finally:
        shutil.rmtree(work, ignore_errors=True)
