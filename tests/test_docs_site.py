"""The documentation site (issue 37): `mkdocs build --strict` passes, every rule's link
as a diagnostic carries it is a page of the built site with the rule on it, and no page
loads anything from outside the site (it must work offline).

Without mkdocs (the test extra) the build is skipped, unless JOBSPEC_REQUIRE_DOCS=1 (CI)
makes that a failure. The rest needs no mkdocs."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from helpers import REPO

from jobspec_lsp import kinds
from jobspec_lsp.cli.sarif import sarif_log
from jobspec_lsp.diagnostics import ALL_KINDS, DOCS_URL, RULES, rule_url
from jobspec_lsp.rules import rulesdoc


def _need_mkdocs() -> None:
    if all(importlib.util.find_spec(m) for m in ("mkdocs", "material")):
        return
    why = "mkdocs-material is not installed (the test extra): the docs site is not built"
    if os.environ.get("JOBSPEC_REQUIRE_DOCS") == "1":
        pytest.fail(f"JOBSPEC_REQUIRE_DOCS=1 but {why}")
    pytest.skip(why)


def build(out: Path, **env: str) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of the checkout into ``out``."""
    _need_mkdocs()
    environ = {k: v for k, v in os.environ.items() if k != "JOBSPEC_PLAYGROUND_DIR"}
    environ.update(NO_MKDOCS_2_WARNING="1", **env)
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=REPO,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return proc


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("docs") / "site"
    build(out)
    return out


def _page(site: Path, url: str) -> Path:
    """The file a URL of the site is served from."""
    assert url.startswith(DOCS_URL), url
    path = site / url[len(DOCS_URL) :]
    return path / "index.html" if url.endswith("/") else path


def test_every_rule_link_is_a_page_of_the_site(site):
    links = {r["id"]: r["helpUri"] for r in sarif_log([])["runs"][0]["tool"]["driver"]["rules"]}
    assert set(links) == set(RULES)
    for code, rule in RULES.items():
        url = rule_url(code)  # the server's codeDescription, the JSON output's url
        assert links[code] == url == f"{DOCS_URL}rules/{code.lower()}/"
        page = _page(site, url)
        assert page.is_file(), f"{code}: {url} is no page of the site"
        html = page.read_text()
        assert f"<title>{code} {rule.name} - jobspec-lsp</title>" in html, code
        assert re.search(
            rf'<h1 id="[^"]+">{code} {re.escape(rule.name)}<a class="headerlink"', html
        )
        assert f'<link rel="canonical" href="{url}">' in html, code  # site_url is DOCS_URL


def test_every_rule_is_in_the_rules_index(site):
    html = (site / "rules" / "index.html").read_text()
    for code in RULES:
        assert f'href="{code.lower()}/"' in html, code


def test_the_docs_links_to_rules_md_are_links_to_rule_pages(site):
    """docs/batch.md links rules.md#js560; the site has the rule's page instead."""
    html = (site / "batch" / "index.html").read_text()
    assert 'href="../rules/js560/"' in html
    assert not (site / "rules.md").exists()


def test_the_migration_tables_are_the_codes(site):
    from jobspec_lsp.migrate import tables

    html = (site / "migration" / "index.html").read_text()
    for name in tables.SCHEDULERS:
        n = tables.counts(name)
        assert f"{n['exact']} options mapped exactly, {n['approximated']} approximated" in html


def test_the_home_page_is_the_readme_and_the_playground_says_how_to_build_it(site):
    home = (site / "index.html").read_text()
    assert "jobspec check" in home and 'href="configuration/"' in home
    playground = (site / "playground" / "index.html").read_text()
    assert "scripts/build-web" in playground and "JOBSPEC_PLAYGROUND_DIR" in playground
    rule = (site / "rules" / "js202" / "index.html").read_text()
    assert re.search(r'href="\.\./\.\./playground/"[^>]*>\s*<span[^>]*>\s*Playground', rule)


class _Loads(HTMLParser):
    """What a page loads: scripts, style sheets, icons, images, frames, media."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("rel") not in ("canonical", "alternate"):
            self.urls.append(a.get("href") or "")
        for name in ("src", "data", "srcset", "poster"):
            if a.get(name) and tag != "a":
                self.urls.append(a[name])
        if "url(" in (a.get("style") or ""):
            self.urls.extend(re.findall(r"url\(([^)]*)\)", a["style"]))


def _outside(url: str) -> bool:
    url = url.strip("'\" ")
    return bool(urlsplit(url).scheme in ("http", "https") or url.startswith("//"))


def test_no_page_loads_anything_from_outside_the_site(site):
    pages = list(site.rglob("*.html"))
    assert len(pages) > len(RULES)
    found = []
    for page in pages:
        parser = _Loads()
        parser.feed(page.read_text())
        found += [f"{page.relative_to(site)}: {u}" for u in parser.urls if _outside(u)]
    for css in site.rglob("*.css"):
        for url in re.findall(r"(?:url\(|@import\s+)([^);\s]+)", css.read_text()):
            if _outside(url):
                found.append(f"{css.relative_to(site)}: {url}")
    assert not found, found[:20]


def test_a_built_playground_is_copied_in(tmp_path):
    built = tmp_path / "playground"
    built.mkdir()
    (built / "index.html").write_text("<!doctype html><title>jobspec playground</title>\n")
    (built / "app.js").write_text("console.log('check')\n")
    out = tmp_path / "site"
    build(out, JOBSPEC_PLAYGROUND_DIR=str(built))
    assert (out / "playground" / "index.html").read_text() == (built / "index.html").read_text()
    assert (out / "playground" / "app.js").is_file()
    assert 'href="playground/"' in (out / "index.html").read_text()


# ----------------------------------------------------------------- without mkdocs
def test_the_site_address_is_declared_once():
    """mkdocs.yml writes no site_url (docs/hooks.py takes the package's); the README
    gives the same address; nothing loads fonts or analytics from elsewhere."""
    cfg = yaml.safe_load((REPO / "mkdocs.yml").read_text())
    assert "site_url" not in cfg and cfg["hooks"] == ["docs/hooks.py"]
    assert cfg["theme"]["font"] is False and "analytics" not in (cfg.get("extra") or {})
    assert {"Playground": "playground/"} in cfg["nav"]
    assert DOCS_URL in (REPO / "README.md").read_text()
    assert DOCS_URL.endswith("/") and rule_url("JS202") == DOCS_URL + "rules/js202/"
    assert rule_url("JS202", "https://docs.example.org/jobspec") == (
        "https://docs.example.org/jobspec/rules/js202/"
    )


def test_each_rule_page_has_its_texts_examples_and_facts():
    for code, r in RULES.items():
        page = rulesdoc.rule_page(code)
        assert page.startswith(f"# {code} {r.name}\n"), code
        for text in (r.summary, r.why, r.bad.rstrip("\n"), r.good.rstrip("\n")):
            assert text in page, code
        assert (rulesdoc._rfc_link(r.rfc) if r.rfc else "no RFC") in page, code
        assert all(f"`{k}`" in page for k in r.kinds), code
        assert (rulesdoc.SAFETY_WORDS[r.safety] if r.fix else "| Fix | none |") in page, code
    assert sorted(re.findall(r"\]\((js\d{3})\.md\)", rulesdoc.index_page())) == sorted(
        c.lower() for c in RULES
    )


def test_the_kinds_words_are_the_kinds_own():
    assert set(rulesdoc.KIND_WORDS) == set(ALL_KINDS)
    for name, words in rulesdoc.KIND_WORDS.items():
        assert kinds.BY_NAME[name].summary == words, name
