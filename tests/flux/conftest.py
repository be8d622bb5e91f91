"""The real-Flux tier: tests that hold jobspec-lsp against a real flux-core.

Flux is found from ``$JOBSPEC_FLUX`` (the path of the ``flux`` command), else ``flux``
on the PATH, else where ``../shared/flux/setup.sh`` installs it. Without one, every test
here is skipped with that reason, unless ``JOBSPEC_REQUIRE_FLUX=1`` (set by .ci/run),
where a missing Flux is a failure. One ``flux start --test-size=1`` instance serves the
whole session; submissions use urgency 0 and are cancelled at once.
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

import pytest

HERE = Path(__file__).resolve().parent
INSTALLED = Path("/opt/flux-core/bin/flux")
SETUP_HINT = "install it with ../shared/flux/setup.sh, or set JOBSPEC_FLUX to a flux command"


def flux_command() -> str | None:
    named = os.environ.get("JOBSPEC_FLUX")
    if named:
        return named
    return shutil.which("flux") or (str(INSTALLED) if INSTALLED.exists() else None)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.flux)


class Flux:
    """A running instance (one broker, or ``size``) and Flux's own tools beside it."""

    def __init__(self, exe: str, config: dict[str, str] | None = None, size: int = 1):
        """``config``: TOML files (name -> text) for the instance's --config-path; ``size``:
        the number of brokers (each a node with this machine's cores)."""
        self.exe = exe
        self.dir = Path(tempfile.mkdtemp(prefix="jobspec-flux-"))
        extra = []
        if config:
            conf = self.dir / "conf"
            conf.mkdir()
            for name, text in config.items():
                (conf / name).write_text(text)
            extra = [f"--config-path={conf}"]
        self.require_version = "1"
        uri_file = self.dir / "uri"
        self.proc = subprocess.Popen(
            # as shipped: no configuration (so no queues: naming one is a site matter)
            [
                exe,
                "start",
                f"--test-size={size}",
                *extra,
                "sh",
                "-c",
                f'echo "$FLUX_URI" > {uri_file}.tmp && mv {uri_file}.tmp {uri_file} '
                "&& exec sleep 100000",
            ],
            stdout=subprocess.DEVNULL,
            stderr=open(self.dir / "broker.log", "wb"),
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while not uri_file.exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                log = (self.dir / "broker.log").read_text(errors="replace")[-2000:]
                self.close()
                raise RuntimeError(f"flux start failed:\n{log}")
            time.sleep(0.1)
        self.env = dict(os.environ, FLUX_URI=uri_file.read_text().strip())

    def run(
        self, *args, input: str | None = None, check: bool = False, timeout: float = 120
    ) -> subprocess.CompletedProcess:
        return subprocess.run(
            [self.exe, *map(str, args)],
            input=input,
            env=self.env,
            capture_output=True,
            text=True,
            check=check,
            timeout=timeout,
        )

    def ask(self, mode: str, lines: list[str], *extra: str) -> list[dict]:
        """Flux's own answer for each input line (see fluxside.py)."""
        if not lines:
            return []
        proc = self.run(
            "python",
            HERE / "fluxside.py",
            mode,
            *extra,
            input="".join(line + "\n" for line in lines),
            timeout=600,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        out = [json.loads(line) for line in proc.stdout.splitlines()]
        assert len(out) == len(lines), proc.stderr[-2000:]
        return out

    def configure_ingest(self, require_version: str) -> None:
        """job-ingest as shipped ("1") or with --require-version=any ("any")."""
        if require_version == self.require_version:
            return
        self.run(
            "module",
            "reload",
            "job-ingest",
            "validator-plugins=jobspec",
            f"validator-args=--require-version={require_version}",
            check=True,
        )
        self.require_version = require_version

    def submit(self, jobspecs: list[str], require_version: str = "1") -> list[dict]:
        """Ingest's verdict on each JSON jobspec: {"ok": bool, "error": str}."""
        self.configure_ingest(require_version)
        return self.ask(
            "submit", [json.dumps(json.loads(j) if isinstance(j, str) else j) for j in jobspecs]
        )

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def flux_exe() -> str:
    exe = flux_command()
    try:
        works = (
            exe is not None
            and subprocess.run([exe, "version"], capture_output=True, timeout=60).returncode == 0
        )
    except (OSError, subprocess.TimeoutExpired):
        works = False
    if not works:
        reason = f"real Flux not found: {SETUP_HINT}"
        if os.environ.get("JOBSPEC_REQUIRE_FLUX") == "1":
            pytest.fail(reason + " (JOBSPEC_REQUIRE_FLUX=1: the tier must run)")
        pytest.skip(reason)
    return exe


@pytest.fixture(scope="session")
def flux(flux_exe):
    instance = Flux(flux_exe)
    try:
        yield instance
    finally:
        instance.close()
