"""The playground reads YAML without libyaml: Pyodide's npm distribution has no package
set, so web/build.py vendors PyYAML's pure-Python reader, which web/yamlcompat.py makes
read as libyaml does (tabs as blanks where libyaml takes them, libyaml's words for each
error: the package's JS901 quotes them). Here both readers check the same documents and
must find the same: every finding (code, severity, message, span) and what the fixes
make of each document.

The documents: every jobspec under tests/data and examples/, each rule's documented bad
and good examples, the RFC corpus of ../shared when it is there, YAML written to reach
the readers' corners (syntax errors, tabs, aliases, tags, several documents, deep
nesting, YAML 1.1 scalars, a BOM, characters beyond U+FFFF), and 2,000 broken variants
of them (characters inserted, removed, replaced). Over 50,000 such variants (ten seeds)
one difference was found: an explicit key with nothing after it in a flow sequence
(`[?, x]`), which libyaml 0.2.5 refuses and the pure reader reads.

Each reader runs in its own Python, as the browser has it: the pure one with the
extension made unimportable before PyYAML is first imported, then yamlcompat installed
as the worker does. No browser is needed: this is not in the `web` marker.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from helpers import CORPUS, REPO

from jobspec_lsp.diagnostics import RULES

MUTANTS = 2000  # (50,000 of them, over ten seeds, found the one difference said above)
RUN = r"""
import json, sys
if sys.argv[1] == "pure":
    sys.modules["yaml._yaml"] = None  # as under Pyodide: no libyaml extension
import yaml
assert yaml.__with_libyaml__ == (sys.argv[1] == "libyaml"), yaml.__with_libyaml__
from jobspec_lsp import kinds
from jobspec_lsp.features.fixes import apply_fixes
from jobspec_lsp.jobspec import document

if sys.argv[1] == "pure":  # what the playground's worker does (web/playground.py)
    sys.path.insert(0, sys.argv[2])
    import yamlcompat

    assert document._Loader is yaml.SafeLoader
    assert yamlcompat.install() and document._Loader is yamlcompat.Loader
options = kinds.Options()
out = {}
for name, text, language in json.load(sys.stdin):
    kind = kinds.BY_NAME[language]
    def analyse(t):
        doc = kind.read(t)
        return doc, kind.check(doc, options)
    doc, diags = analyse(text)
    found = [[d.code, int(d.severity), d.message, d.start, d.end] for d in diags]
    fixed, applied = apply_fixes(analyse, text, unsafe=True)
    out[name] = {"findings": found, "fixed": fixed, "applied": applied}
json.dump(out, sys.stdout)
"""

CORNERS = {
    "syntax: unclosed flow": "resources: [{type: node, count: 1\ntasks: []\n",
    "syntax: bad indent": "version: 1\nresources:\n  - type: node\n   count: 1\n",
    "syntax: unclosed quote": 'attributes:\n  system:\n    duration: "12\n',
    "syntax: colon in plain": "tasks:\n  - command: [a: b: c]\n",
    "tabs": "version: 1\nresources:\n\t- type: node\n",
    "duplicate keys": "version: 1\nversion: 2\nresources: []\ntasks: []\n",
    "aliases": (
        "version: 1\nresources:\n  - &n {type: node, count: 1, with: [{type: slot, count: 1,"
        " label: t, with: [{type: core, count: 1}]}]}\ntasks:\n  - {command: [a], slot: t,"
        " count: {per_slot: 1}}\nattributes: {system: {duration: 0}}\nx: *n\n"
    ),
    "merge key": "a: &a {x: 1}\nb:\n  <<: *a\n  y: 2\n",
    "unknown alias": "resources: *nope\n",
    "tags": "resources: !!python/object:os.system {}\ntasks: !custom []\n",
    "several documents": "version: 1\n---\nversion: 2\n",
    "document markers": "%YAML 1.1\n---\nversion: 1\n...\n",
    "yaml 1.1 scalars": (
        "version: 1\nresources:\n  - {type: node, count: 0x10, exclusive: yes}\n"
        "attributes: {system: {duration: 1:30, cwd: ~, mode: 0755, when: 2024-01-01}}\n"
    ),
    "deep nesting": "a: " + "[" * 120 + "]" * 120 + "\n",
    "deep block nesting": "".join("  " * i + f"k{i}:\n" for i in range(60)) + "  " * 60 + "v\n",
    "bom": "\ufeffversion: 1\nresources: []\ntasks: []\n",
    "beyond U+FFFF": "version: 1\nattributes:\n  user: {note: '\U0001f600 x', n: \U0001f600}\n",
    "control character": 'version: 1\nattributes: {user: {a: "\x07"}}\n',
    "empty": "",
    "comment only": "# nothing\n",
    "block scalars": "tasks:\n  - command: |\n      a b\n    slot: >-\n      t\n",
    "long line": "attributes: {user: {x: " + "y" * 5000 + "}}\n",
    "json: trailing comma": '{"version": 1, "resources": [], }',
    "json: duplicate": '{"version": 1, "version": 1, "resources": [], "tasks": []}',
}


def _corpus() -> list[list[str]]:
    items: list[list[str]] = []
    paths = sorted((REPO / "tests" / "data").rglob("*"))
    paths += sorted((REPO / "examples").glob("*"))
    if CORPUS.is_dir():
        paths += sorted(CORPUS.rglob("*"))
    for path in paths:
        if path.suffix in (".yaml", ".yml"):
            language = "jobspec-yaml"
        elif path.suffix == ".json":
            language = "jobspec-json"
        else:
            continue
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        items.append([str(path.relative_to(REPO.parent)), text, language])
    for code, rule in sorted(RULES.items()):
        language = "jobspec-json" if rule.example_options.get("language") == "json" else ""
        for which, text in (("bad", rule.bad), ("good", rule.good)):
            if not text or text.startswith("#!"):
                continue  # a script's: no YAML is read
            items.append([f"{code} {which}", text, language or "jobspec-yaml"])
    for name, text in CORNERS.items():
        items.append([name, text, "jobspec-json" if name.startswith("json") else "jobspec-yaml"])
    return items


def _mutants(items, n: int, seed: int = 1) -> list[list[str]]:
    """``n`` broken variants of the corpus's documents: one to three characters inserted,
    removed or replaced by YAML's indicators, blanks, tabs and line breaks."""
    rnd = random.Random(seed)
    pool = [i for i in items if 0 < len(i[1]) < 4000]
    marks = [*":-[]{},'\"\t#&*!|>%@` \n?", "\t", "  ", "- ", ": ", "\t\t"]
    out = []
    for k in range(n):
        name, text, language = rnd.choice(pool)
        for _ in range(rnd.choice([1, 1, 2, 3])):
            pos = rnd.randrange(len(text) or 1)
            op = rnd.random()
            if op < 0.4:
                text = text[:pos] + rnd.choice(marks) + text[pos:]
            elif op < 0.7:
                text = text[:pos] + text[pos + 1 :]
            else:
                text = text[:pos] + rnd.choice(marks) + text[pos + 1 :]
        out.append([f"mutant {k} of {name}", text, language])
    return out


def _run(mode: str, items) -> dict:
    got = subprocess.run(
        [sys.executable, "-c", RUN, mode, str(REPO / "web")],
        input=json.dumps(items),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert got.returncode == 0, got.stderr[-3000:]
    return json.loads(got.stdout)


def test_the_pure_python_reader_finds_what_libyaml_finds():
    import yaml

    if not yaml.__with_libyaml__:
        pytest.skip("this PyYAML has no libyaml extension: there is nothing to compare with")
    items = _corpus()
    assert len(items) > 300, len(items)
    items += _mutants(items, MUTANTS)
    pure, libyaml = _run("pure", items), _run("libyaml", items)
    assert set(pure) == set(libyaml)
    differ = [name for name in libyaml if pure[name] != libyaml[name]]
    shown = {n: {"libyaml": libyaml[n], "pure": pure[n]} for n in differ[:5]}
    assert not differ, json.dumps(shown, indent=1, ensure_ascii=False)[:6000]
    # the corpus reaches the readers' errors, not only clean documents
    found = {c for v in libyaml.values() for c, *_ in v["findings"]}
    assert {"JS901", "JS902", "JS905", "JS908"} <= found, sorted(found)
