"""The documentation site's build hooks (mkdocs.yml `hooks:`): what the site shows that is
made from the code at build time, so no generated page is committed.

- `site_url` is the package's one address of the documentation,
  `jobspec_lsp.diagnostics.DOCS_URL`, unless mkdocs.yml or `mkdocs serve` sets one.
- The home page is the README, its links into docs/ made links of the site.
- `rules/index.md` and one page per rule, `rules/js202.md` (served at `rules/js202/`,
  where `diagnostics.rule_url` points), are rendered from the rule registry
  (`jobspec_lsp.rules.rulesdoc`).
- Links to docs/rules.md (every rule on one page, which the site leaves out) are links
  to the rule's page (`rules.md#js560` -> `rules/js560.md`) or to the rules index.
- docs/migration.md's option tables are made again from the schedulers' tables
  (`jobspec_lsp.migrate.tables`).
- The nav's `Playground: playground/` entry: the playground built by `scripts/build-web
  OUT`, copied into the site when `JOBSPEC_PLAYGROUND_DIR=OUT` is set, else a page that
  says how to build it.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Link, Navigation

REPO = Path(__file__).resolve().parent.parent
try:
    import jobspec_lsp  # noqa: F401  the installed package (scripts/test: not editable)
except ImportError:  # a checkout whose package is not installed
    sys.path.insert(0, str(REPO))

from jobspec_lsp.diagnostics import DOCS_URL, RULES  # noqa: E402
from jobspec_lsp.migrate import tables  # noqa: E402
from jobspec_lsp.rules import rulesdoc  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

PLAYGROUND_ENV = "JOBSPEC_PLAYGROUND_DIR"
PLAYGROUND = "playground/"  # the nav entry's address, and the site's folder
REPOSITORY = "https://github.com/flux-framework/jobspec-lsp/blob/main/"
_LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s]+)\)")
_RULES_MD = re.compile(r"\]\(rules\.md(?:#(js\d{3})|(#[^)\s]*))?\)")
_nav_link: list[tuple[int, str]] = []  # the playground's (position, title) in the nav

PLAYGROUND_PAGE = """# Playground

The playground checks a jobspec or a batch script in the browser, offline, with the
same rules as `jobspec check`. This copy of the documentation was built without it.
To build the static playground, then the site with it copied in:

```sh
scripts/build-web /tmp/playground
JOBSPEC_PLAYGROUND_DIR=/tmp/playground mkdocs build --strict
```
"""


def playground_dir() -> Path | None:
    """The built playground named by JOBSPEC_PLAYGROUND_DIR (a folder with index.html)."""
    where = os.environ.get(PLAYGROUND_ENV)
    if not where:
        return None
    path = Path(where)
    if not (path / "index.html").is_file():
        raise SystemExit(f"{PLAYGROUND_ENV}={where}: no index.html there (scripts/build-web OUT)")
    return path


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    if not config.site_url:
        config.site_url = DOCS_URL
    _nav_link.clear()
    if config.nav:
        for i, item in enumerate(config.nav):
            if isinstance(item, dict) and list(item.values()) == [PLAYGROUND]:
                _nav_link.append((i, next(iter(item))))
        # a link to no page of docs/ (mkdocs would warn of it): put back by on_nav
        left_out = dict(_nav_link)
        config.nav = [item for i, item in enumerate(config.nav) if i not in left_out]
    return config


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    files.append(File.generated(config, "index.md", content=readme_page(readme)))
    files.append(File.generated(config, "rules/index.md", content=rulesdoc.index_page()))
    for code in sorted(RULES):
        page = File.generated(
            config,
            f"rules/{code.lower()}.md",
            content=rulesdoc.rule_page(code),
            inclusion=InclusionLevel.NOT_IN_NAV,  # the rules index links each
        )
        files.append(page)
    if playground_dir() is None:
        files.append(File.generated(config, f"{PLAYGROUND}index.md", content=PLAYGROUND_PAGE,
                                    inclusion=InclusionLevel.NOT_IN_NAV))  # fmt: skip
    return files


def readme_page(readme: str) -> str:
    """The README as the site's home page: links into docs/ are the site's pages, links to
    other files of the repository point at the repository."""

    def link(m: re.Match[str]) -> str:
        target = m.group(1)
        if target.startswith("docs/"):
            return f"]({target.removeprefix('docs/')})"
        return f"]({REPOSITORY}{target})"

    return _LINK.sub(link, readme)


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    if page.file.src_uri == "migration.md":
        markdown = tables.document(markdown)
    if "/" not in page.file.src_uri:  # a page beside rules.md
        markdown = _RULES_MD.sub(_rule_link, markdown)
    return markdown


def _rule_link(m: re.Match[str]) -> str:
    code, anchor = m.group(1), m.group(2)
    return f"](rules/{code}.md)" if code else f"](rules/index.md{anchor or ''})"


def on_nav(nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation:
    for position, title in _nav_link:
        nav.items.insert(position, Link(title, PLAYGROUND))
    return nav


def on_post_build(*, config: MkDocsConfig) -> None:
    built = playground_dir()
    if built is not None:
        shutil.copytree(built, Path(config.site_dir) / PLAYGROUND, dirs_exist_ok=True)
