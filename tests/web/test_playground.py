"""The playground (issue 37): the static site scripts/build-web writes, served by a plain
http.server on 127.0.0.1 and driven by Playwright in Debian's Chromium, as a user works in
it: typing a jobspec, pasting a Slurm script, applying fixes, loading a site profile.

Every request the page (and its Python worker) makes is routed through the test: one to
any host but the local server fails the test (the site must work offline), and Chromium
resolves no other name anyway.

Needs npm (scripts/build-web's tools, cached), Debian's chromium and Playwright for
Python (the test extra): `scripts/setup-web` installs them, and `scripts/test` runs it in
the background, then this. Without them it skips with the reason, except where
JOBSPEC_REQUIRE_WEB=1 (CI), where that is a failure. Screenshots of a failure go to
test-artifacts/web/.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import REPO
from test_docs_site import build as build_site

pytestmark = pytest.mark.web

ARTIFACTS = REPO / "test-artifacts" / "web"
BUILD = REPO / "scripts" / "build-web"
DOCS = "https://docs.example.org/jobspec/"  # --docs-url of the build: links, never loaded
TEXTBOX = "Script or jobspec"

JOBSPEC = """\
version: 1
resources:
  - type: node
    count: 2
    with:
      - type: slot
        count: 4
        label: task
        with:
          - type: core
            count: \n\
tasks:
  - command: [app, --verbose]
    slot: task
    count:
      per_slot: 1
attributes:
  system:
    duration: 3600
"""
BROKEN = (REPO / "examples" / "broken-v1.jobspec.yaml").read_text()
SLURM = """\
#!/bin/bash
#SBATCH --job-name=sim
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --time=01:30:00
#SBATCH --mail-type=END

srun ./sim input.deck
"""
OVER_THE_LIMIT = "#!/bin/sh\n#flux: -N2 --queue=debug -t 3h\n\nflux run -N2 ./sim\n"
CANONICAL = (REPO / "examples" / "canonical-range.jobspec.yaml").read_text()


def _require(reason: str):
    if os.environ.get("JOBSPEC_REQUIRE_WEB") == "1":
        pytest.fail(reason + " (JOBSPEC_REQUIRE_WEB=1: this tier must run)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        _require("Debian's chromium is not installed: run scripts/setup-web")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _require("Playwright for Python is not installed (the test extra)")
    if shutil.which("npm") is None:
        _require("npm is not installed: run scripts/setup-web")
    return found  # type: ignore[return-value]


def build(out: Path, *args: str) -> Path:
    """scripts/build-web OUT ARGS... with this Python's dependencies."""
    env = {**os.environ, "PYTHON": sys.executable}
    got = subprocess.run(
        [str(BUILD), str(out), *args], env=env, capture_output=True, text=True, timeout=900
    )
    if got.returncode != 0:
        why = (got.stderr or got.stdout).strip().splitlines()
        _require(f"scripts/build-web failed: {why[-1] if why else got.returncode}")
    return out


class Server:
    """The built site on a local http.server; the paths it was asked for."""

    def __init__(self, root: Path):
        asked = self.asked = []

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                asked.append(self.path)

        handler = functools.partial(Handler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Browser:
    """Chromium with every request checked: to anywhere but ``origin`` it is aborted and
    remembered (the test then fails)."""

    def __init__(self, executable: str):
        from playwright.sync_api import sync_playwright

        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(
            executable_path=executable,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                # no name but the local server's resolves, whatever asks
                "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
            ],
        )

    def page(self, origin: str, path: str = "/"):
        ctx = self.browser.new_context(viewport={"width": 1400, "height": 900})
        page = ctx.new_page()
        page.outside = []  # type: ignore[attr-defined]
        page.seen = []  # type: ignore[attr-defined]
        page.errors = []  # type: ignore[attr-defined]
        local = urlsplit(origin).netloc

        def route(r):
            url = r.request.url
            page.seen.append(url)
            parts = urlsplit(url)
            if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != local:
                page.outside.append(url)
                r.abort()
            else:
                r.continue_()

        ctx.route("**/*", route)
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(origin + path)
        page.wait_for_function("window.playground !== undefined", timeout=120_000)
        return page

    def close(self):
        self.browser.close()
        self.pw.stop()


@pytest.fixture(scope="module")
def site(chromium, tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("web") / "site", "--docs-url", DOCS)


@pytest.fixture(scope="module")
def browser(chromium):
    b = Browser(chromium)
    yield b
    b.close()


@pytest.fixture(scope="module")
def served(site):
    server = Server(site)
    yield server
    server.close()


@pytest.fixture(scope="module")
def shared_page(browser, served):
    return browser.page(served.origin)


@pytest.fixture
def page(shared_page, served, request):
    """The page, emptied and set back to its defaults; after the test, no request has
    gone outside and no script error happened (a screenshot when the test failed)."""
    p = shared_page
    if p.locator("#site-clear").is_visible():
        p.locator("#site-clear").click()
    p.get_by_label("Target").select_option("rfc")
    p.get_by_label("Read as").select_option("auto")
    set_text(p, "")
    yield p
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        p.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"))
    assert p.outside == [], f"requests outside the served site: {p.outside}"
    assert p.errors == [], p.errors


# ------------------------------------------------------------------ helpers
def textbox(page):
    return page.get_by_role("textbox", name=TEXTBOX)


def set_text(page, text: str):
    """What pasting does: the whole text at once."""
    box = textbox(page)
    box.fill(text)
    wait_checked(page)


def editor_text(page) -> str:
    return page.evaluate("window.playground.view.state.doc.toString()")


def wait_checked(page, timeout: float = 60.0):
    """Until the findings are of the editor's text as it is now."""
    page.wait_for_function(
        "() => { const p = window.playground;"
        " return p.last && p.last.version === p.version"
        " && !document.querySelector('#findings[aria-busy]'); }",
        timeout=timeout * 1000,
    )


FINDINGS = """() => [...document.querySelectorAll('#findings li.finding')].map((li) => {
  const text = (sel) => { const e = li.querySelector(sel); return e ? e.textContent : null; };
  return {
    code: text('.code'), href: li.querySelector('.code').getAttribute('href'),
    severity: text('.severity').toLowerCase(), where: text('.where'), word: text('.word'),
    message: text('.message'), fixes: [...li.querySelectorAll('button.fix')].map((b) => b.textContent),
  };
})"""


def findings(page) -> list[dict]:
    """Each finding of the Findings region (read at once: the list is drawn anew at each
    analysis): code, href, severity, where, word, message, fixes."""
    assert page.get_by_role("region", name="Findings").is_visible()
    return page.evaluate(FINDINGS)


def codes(page) -> list[str]:
    return [f["code"] for f in findings(page)]


def wait_for(what: str, fn, timeout: float = 30.0):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        last = fn()
        if last:
            return last
        time.sleep(0.1)
    raise AssertionError(f"{what}: still {last!r}")


# ------------------------------------------------------------------ tests
def test_it_starts_offline_from_the_served_folder(page, served):
    """Python starts in the worker from the site's own files: Pyodide's runtime, the zip
    of the package; every request (the worker's too) is seen, and all are local."""
    started = page.evaluate("window.playground.started")
    assert started["ok"] and started["python"].startswith("3.")
    seen = " ".join(page.seen)
    for name in ("pyodide.asm.wasm", "python_stdlib.zip", "jobspec.zip", "worker.js"):
        assert name in seen, f"{name} was not requested through the route: {page.seen}"
    assert all(url.startswith(served.origin) for url in page.seen)
    assert "Ready" in page.get_by_role("status").inner_text()


def test_typing_a_count_of_0_shows_js202_at_its_word(page):
    set_text(page, JOBSPEC)
    assert "detected as a jobspec (YAML)" in page.locator("#kind-label").inner_text()
    # the count is left empty: the cursor goes to it and 0 is typed, key by key
    page.locator(".cm-content .cm-line").nth(10).click()  # line 11: `count: `
    page.keyboard.press("End")
    page.keyboard.type("0", delay=30)
    wait_checked(page)
    [js202] = [f for f in findings(page) if f["code"] == "JS202"]
    assert js202["severity"] == "error"
    assert js202["word"] == "0" and js202["where"] == "line 11, column 20"
    assert "at least 1" in js202["message"]
    assert js202["href"] == DOCS + "rules/js202/"
    # underlined in the editor at that word, and nothing else is
    marks = page.locator(".cm-content .cm-lintRange-error").all_inner_texts()
    assert marks == ["0"]
    # typing on mends it
    page.keyboard.press("Backspace")
    page.keyboard.type("8", delay=30)
    wait_checked(page)
    assert "JS202" not in codes(page)
    assert "all checks passed" in page.get_by_role("region", name="Findings").inner_text()


def test_a_slurm_script_shows_its_flux_script(page):
    set_text(page, SLURM)
    assert "Slurm" in page.locator("#kind-label").inner_text()
    flux = page.get_by_role("region", name="Flux script")
    flux.wait_for()
    shown = flux.get_by_role("textbox", name="The converted Flux script")
    text = shown.inner_text()
    for line in ("#flux: --job-name=sim", "#flux: -t 90m", "flux run -N2 -n8 ./sim input.deck"):
        assert line in text, text
    # the diff: the lines the conversion replaced are shown deleted
    assert flux.locator(".cm-deletedChunk").count() > 0
    assert "srun ./sim" in flux.locator(".cm-deletedChunk").all_inner_texts()[-1]
    carried = flux.locator("ul.conversion.carried").inner_text()
    assert "#SBATCH --time=01:30:00 → #flux: -t 90m" in carried
    assert "srun → flux run" in carried
    assert "--mail-type=END" in flux.locator("ul.conversion.refused").inner_text()
    assert "JS591" in codes(page)  # --mail-type: Flux sends no mail
    # it becomes the input: a Flux script, whose jobspec can be shown
    flux.get_by_role("button", name="Use it as the input").click()
    wait_checked(page)
    assert "#SBATCH --nodes" not in editor_text(page) and "#flux: -t 90m" in editor_text(page)
    assert "Flux batch script" in page.locator("#kind-label").inner_text()
    assert not flux.is_visible()
    page.get_by_role("button", name="Show the jobspec").click()
    jobspec = page.get_by_role("region", name="Jobspec")
    wait_for("the jobspec", lambda: "duration: 5400" in jobspec.inner_text())
    assert "flux batch --dry-run" in jobspec.inner_text()
    page.get_by_role("button", name="Hide the jobspec").click()


def test_quick_fixes_apply(page):
    set_text(page, BROKEN)
    found = {f["code"]: f for f in findings(page)}
    assert {"JS202", "JS307", "JS405", "JS605"} <= set(found)
    assert "Fix: Replace '1h' with 3600" in found["JS405"]["fixes"]
    region = page.get_by_role("region", name="Findings")
    region.locator("li.finding", has_text="JS405").get_by_role(
        "button", name="Fix: Replace '1h' with 3600"
    ).click()
    wait_checked(page)
    assert "duration: 3600" in editor_text(page) and "JS405" not in codes(page)
    # a did-you-mean, marked unsafe, is applied only when chosen
    region.locator("li.finding", has_text="JS307").get_by_role(
        "button", name=re.compile("task")
    ).click()
    wait_checked(page)
    assert "slot: task " in editor_text(page) and "JS307" not in codes(page)
    # all the safe ones at once, as check --fix does
    region.get_by_role("button", name=re.compile("Apply the safe fixes")).click()
    wait_for("the safe fixes", lambda: "JS605" not in codes(page))
    wait_checked(page)
    assert "count: 4 " in editor_text(page)
    assert "Applied" in page.get_by_role("status").inner_text()
    left = set(codes(page))
    assert "JS202" in left  # no fix: a count of 0 has no one right value
    # undo takes the fixes back
    textbox(page).press("Control+z")
    wait_checked(page)
    assert "JS605" in codes(page)


def test_a_site_profile_checks_queue_limits(page):
    set_text(page, OVER_THE_LIMIT)
    assert not [c for c in codes(page) if c.startswith("JS65")]
    site = REPO / "examples" / "site"
    page.locator("#site-files").set_input_files([str(site / "site.toml"), str(site / "R.json")])
    status = page.locator("#site-status")
    wait_for("the site loaded", lambda: "Site profile: site.toml, R.json" in status.inner_text())
    wait_checked(page)
    [limit] = [f for f in findings(page) if f["code"].startswith("JS65")]
    assert limit["code"] == "JS654" and limit["word"] == "3h"
    assert "queue `debug` allows at most 1h" in limit["message"]
    page.locator("#site-clear").click()
    wait_checked(page)
    assert not [c for c in codes(page) if c.startswith("JS65")]


def test_a_broken_site_profile_is_said(page):
    page.locator("#site-files").set_input_files(
        files=[{"name": "site.toml", "mimeType": "text/plain", "buffer": b"[queues.debug\n"}]
    )
    status = page.locator("#site-status")
    wait_for("the error", lambda: "Site profile not loaded" in status.inner_text())
    assert "site.toml" in status.inner_text()


def test_the_target_changes_what_is_an_error(page):
    set_text(page, CANONICAL)
    assert codes(page) == []
    page.get_by_label("Target").select_option("flux-core")
    wait_for("flux-core's findings", lambda: "JS001" in codes(page))
    page.get_by_label("Target").select_option("rfc")
    wait_for("no findings", lambda: codes(page) == [])


DROP = """([name, text]) => {
  const data = new DataTransfer();
  data.items.add(new File([text], name, { type: "text/plain" }));
  const on = document.querySelector(".cm-content");
  on.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
}"""


def test_an_opened_or_dropped_file_is_read_by_its_name(page):
    data = json.dumps(
        {
            "version": 1,
            "resources": [
                {"type": "slot", "count": 1, "label": "t", "with": [{"type": "core", "count": 0}]}
            ],
            "tasks": [{"command": ["a"], "slot": "t", "count": {"per_slot": 1}}],
            "attributes": {"system": {"duration": 0}},
        },
        indent="\t",  # read as libyaml reads it (web/yamlcompat.py), not as JS904
    )
    page.locator("#open-file").set_input_files(
        files=[
            {"name": "job.jobspec.json", "mimeType": "application/json", "buffer": data.encode()}
        ]
    )
    wait_for("the file", lambda: "job.jobspec.json" in page.locator("#kind-label").inner_text())
    wait_checked(page)
    assert "a jobspec (JSON)" in page.locator("#kind-label").inner_text()
    assert codes(page) == ["JS202"]
    # dropped on the editor: the file's text replaces the editor's
    page.evaluate(DROP, ["job.sh", SLURM])
    wait_for("the dropped file", lambda: "(job.sh)" in page.locator("#kind-label").inner_text())
    wait_checked(page)
    assert editor_text(page) == SLURM
    assert "a Slurm batch script" in page.locator("#kind-label").inner_text()


def test_a_site_baked_in_at_build_time(browser, chromium, tmp_path):
    """scripts/build-web --site DIR: the page starts with the profile loaded."""
    out = build(tmp_path / "baked", "--site", str(REPO / "examples" / "site"))
    server = Server(out)
    try:
        page = browser.page(server.origin)
        wait_for(
            "the site", lambda: "Site profile: site" in page.locator("#site-status").inner_text()
        )
        set_text(page, OVER_THE_LIMIT)
        assert "JS654" in codes(page)
        f = findings(page)[0]
        assert f["href"].startswith("https://flux-framework.github.io/jobspec-lsp/rules/")
        assert page.outside == [] and page.errors == []
        page.context.close()
    finally:
        server.close()


def test_a_findings_link_opens_its_rule_page_in_the_built_docs_site(browser, chromium, tmp_path):
    """The documentation site as a centre hosts it: built by mkdocs with the playground in
    it, the playground built with that site's address (--docs-url). A finding's link,
    followed, opens its rule's page of that site, and nothing outside is asked for."""
    root = tmp_path / "docs"
    root.mkdir()
    server = Server(root)  # started first: the playground is built with its address
    try:
        playground = build(tmp_path / "play", "--docs-url", server.origin + "/")
        build_site(root, JOBSPEC_PLAYGROUND_DIR=str(playground))  # mkdocs build --strict
        page = browser.page(server.origin, "/playground/")
        set_text(page, JOBSPEC.replace("count: \n", "count: 0\n"))
        link = page.locator("#findings li.finding a.code", has_text="JS202")
        assert link.get_attribute("href") == server.origin + "/rules/js202/"
        with page.context.expect_page() as opened:
            link.click()
        rule = opened.value
        rule.wait_for_load_state()
        assert rule.url == server.origin + "/rules/js202/"
        assert rule.title().startswith("JS202 ") and rule.title().endswith(" - jobspec-lsp")
        heading = rule.get_by_role("heading", level=1).inner_text()
        assert heading.startswith("JS202 "), heading
        # the rule's page shows its examples, and the site links back to the playground
        assert "count: 0" in rule.locator("article").inner_text()
        assert rule.locator('a[href$="playground/"]').count() > 0
        assert page.outside == [] and page.errors == []
        assert "/rules/js202/" in " ".join(server.asked)
        page.context.close()
    finally:
        server.close()
