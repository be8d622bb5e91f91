"""Every safe fix keeps what Flux reads, except the one change it is declared to make.

What Flux reads: the data of the document as Flux loads it (PyYAML's YAML 1.1 safe
loader, or JSON), or for a batch script the directive words `flux batch` reads, the
jobspec it builds, and the script as its shell parses it (bash's own reprint of it,
which drops comments and keeps strings and here-documents).

A safe fix is one of two kinds (jobspec_lsp/features/fixes.py, docs/configuration.md):
cosmetic ones (``fixes.COSMETIC``) must leave that data exactly as it was; repairs
(``fixes.REPAIRS``) fix an error-severity finding and may change only the value that
finding is about, to the value ``DECLARED`` below says -- written here from what each
message tells the user, not from the fix's code. And `check --fix` on a document
with no error changes nothing Flux reads.

The corpus: tests/data/** (tests/data/fix_safety holds the hard cases), examples/,
every rule's bad example, RFC 36's example scripts, documents from the fuzz
generator (tests/fuzzgen.py, with its comments turned into suppressions), and
../shared/corpus when it is there.
"""

from __future__ import annotations

import base64
import json
import math
import random
import re
import shlex
import subprocess
from pathlib import Path

import pytest
import yaml
from batch_cases import RFC36
from fuzzgen import generate
from helpers import REPO, SHARED
from test_habits import check_habit_repair

from jobspec_lsp.diagnostics import RULES, Severity
from jobspec_lsp.features import fixes
from jobspec_lsp.job import directives
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import Document, Mapping, Sequence
from jobspec_lsp.kinds import detect
from jobspec_lsp.notations import shape
from jobspec_lsp.rules.analysis import check
from jobspec_lsp.rules.targets import TARGETS
from jobspec_lsp.script import batch
from jobspec_lsp.text.positions import LineIndex

FUZZ_SEEDS = range(300)
# the script repairs of issue 39, held to tests/test_habits.py's check_habit_repair
HABITS = {"JS570", "JS572"}


# ------------------------------------------------------------------ what Flux reads
class Unreadable(Exception):
    pass


def _bash_reprint(body: str) -> str:
    """The script body as bash parses it: defined as a function and printed back."""
    proc = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", 'eval "__job() {\n$(cat)\n}" && declare -f __job'],
        input=body + "\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    if proc.returncode:
        raise Unreadable(proc.stderr)
    return proc.stdout


SHELLS = re.compile(r"#!\s*\S*/(env\s+(-\S*\s+)*)?(ba|da|k|mk|z)?sh(\s|$)")


def reads(text: str, language: str):
    """What Flux reads of ``text``; Unreadable when it reads nothing."""
    if language == "json":
        try:
            return json.loads(text)
        except ValueError as exc:
            raise Unreadable(str(exc)) from None
    if language == "yaml":
        try:
            return yaml.load(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError as exc:
            raise Unreadable(str(exc)) from None
    first, _, body = text.partition("\n")
    script = directives.read(text)
    try:
        js = batch.jobspec(text, "job.sh", "/work")
        js["attributes"]["system"]["files"]["script"]["data"] = None  # compared below
        built = json.dumps(js, sort_keys=True)
    except batch.BatchError as exc:
        built = f"refused: {exc}"
    shell = _bash_reprint(body) if SHELLS.match(first) else body
    return {
        "words": [w.value for w in script.words],
        "jobspec": built,
        "interpreter": first,
        "script": shell,
    }


def _key(k):
    return (type(k).__name__, repr(k))


def same(a, b) -> bool:
    """Equal as data and as types (1, 1.0 and True are three values to Flux)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        ka, kb = {_key(k): k for k in a}, {_key(k): k for k in b}
        return ka.keys() == kb.keys() and all(same(a[ka[k]], b[kb[k]]) for k in ka)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def differences(a, b, path=()) -> list[tuple]:
    """The paths where ``a`` and ``b`` differ, each as short as it can be."""
    if same(a, b):
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        ka, kb = {_key(k): k for k in a}, {_key(k): k for k in b}
        out = [path + (ka.get(k, kb.get(k)),) for k in ka.keys() ^ kb.keys()]
        for k in ka.keys() & kb.keys():
            out += differences(a[ka[k]], b[kb[k]], path + (ka[k],))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, path + (i,))]
    return [path]


def at(data, path):
    for p in path:
        data = data[p]
    return data


# ------------------------------------------------------------------ declared changes
def _node_path(doc: Document, start: int, end: int):
    """(path, is_key) of the node spanning exactly start..end, first found."""
    stack = [(doc.root, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, Mapping):
            for k, v in node.pairs:
                if (k.start, k.end) == (start, end):
                    return path, True
                if v is not None and v.start <= start and end <= v.end:
                    if (v.start, v.end) == (start, end):
                        return path + (k.value,), False
                    stack.append((v, path + (k.value,)))
        elif isinstance(node, Sequence):
            for i, item in enumerate(node.items):
                if (item.start, item.end) == (start, end):
                    return path + (i,), False
                if item.start <= start and end <= item.end:
                    stack.append((item, path + (i,)))
    raise AssertionError(f"no node at {start}..{end}")


def _seconds(fsd: str) -> float | int:
    """RFC 23 Flux Standard Duration, as the JS405/JS406 messages read it."""
    m = re.fullmatch(r"\s*([0-9.]+(?:[eE][-+]?\d+)?)\s*(ms|s|m|h|d)?\s*", fsd)
    assert m, fsd
    n = (
        float(m.group(1))
        * {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, None: 1}[m.group(2)]
    )
    return int(n) if n.is_integer() else n


def _size(entry: dict) -> int:
    if entry.get("encoding") == "base64":
        return len(base64.b64decode(entry["data"]))
    return len(entry["data"].encode("utf-8"))


def _as_written(source: str, old):
    return source


# code -> (what the finding's value becomes, given its old value, its source text and
# the mapping it is in): each the message's own words
DECLARED = {
    "JS103": lambda old, src, parent: int(old),  # an integer, not "1"
    "JS605": lambda old, src, parent: int(old),
    "JS113": lambda old, src, parent: old.lower() == "true",  # true or false
    "JS405": lambda old, src, parent: _seconds(old),  # "write 3600 for '1h'"
    "JS406": lambda old, src, parent: _seconds(old),
    "JS313": lambda old, src, parent: (  # a command string's words; an element quoted
        shlex.split(old) if isinstance(old, str) else src
    ),
    "JS407": lambda old, src, parent: src,  # "quote it"
    "JS409": lambda old, src, parent: src,
    "JS410": lambda old, src, parent: src,
    "JS910": lambda old, src, parent: src,  # "quote it to keep it a string"
    "JS525": lambda old, src, parent: next(  # the encoding it spells otherwise
        e
        for e in ("utf-8", "base64", "blobvec")
        if re.sub(r"\W|_", "", old.lower()) == e.replace("-", "")
    ),
    "JS527": lambda old, src, parent: (old & 0o7777) | 0o100000,  # "for a regular file"
    "JS528": lambda old, src, parent: _size(parent),  # the length of the data
    "JS104": lambda old, src, parent: shape.expand(old),  # the shape's vertices
}


def check_repair(doc, d, before, after):
    """A repair of an error changes only that value, to the declared one."""
    assert d.severity == Severity.ERROR, f"{d.code} repairs what is not an error"
    changed = differences(before, after)
    if d.code in ("JS608", "JS609"):  # the unlimited duration V1 requires, added
        system = after["attributes"]["system"]
        was = before["attributes"].get("system") or {}
        assert same(system, {**was, "duration": 0}), system
        assert all(p[:2] == ("attributes", "system") for p in changed), changed
        return
    path, is_key = _node_path(doc, d.start, d.end)
    src = doc.text[d.start : d.end]
    if is_key:  # a key written as a string: the same entry under the key as written
        old_map, new_map = at(before, path), at(after, path)
        old_key = next(k for k in old_map if _key(k) == _key(yaml.safe_load(src)))
        want = {(src if k is old_key else k): v for k, v in old_map.items()}
        assert same(new_map, want), (new_map, want)
        assert all(p[: len(path)] == path for p in changed), changed
        return
    old = at(before, path)
    want = DECLARED[d.code](old, src, at(before, path[:-1]))
    assert same(at(after, path), want), (d.code, src, at(after, path), want)
    assert all(p[: len(path)] == path for p in changed), (d.code, changed, path)


# ------------------------------------------------------------------ the corpus
def _language(name: str, text: str) -> str:
    if detect(name, text, explicit=True).is_script:
        return "script"
    return "json" if name.endswith(".json") else "yaml"


def corpus() -> list[tuple[str, str, str, str]]:
    """(id, text, language, version rules)."""
    out = []
    roots = [REPO / "tests" / "data", REPO / "examples", SHARED / "corpus"]
    for root in roots:
        for path in sorted(root.rglob("*")) if root.is_dir() else []:
            if path.suffix not in (".yaml", ".yml", ".json", ".sh") or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            rel = path.relative_to(root.parent).as_posix()
            out.append((rel, text, _language(path.name, text), "auto"))
    for code, rule in sorted(RULES.items()):
        opts = rule.example_options
        if "convert" in opts or "encoding" in opts or "max_chars" in opts:
            continue  # not a document `check` reads as it stands
        language = "script" if rule.for_scripts else opts.get("language", "yaml")
        rules = "v1" if rule.applies == "v1" else "auto"
        out.append((f"rule/{code}", rule.bad, language, rules))
    for i, (text, _) in enumerate(RFC36):
        out.append((f"rfc36/{i}", text, "script", "auto"))
    return out


def fuzz_corpus() -> list[tuple[str, str, str, str]]:
    out = []
    for seed in FUZZ_SEEDS:
        text = generate(random.Random(seed))
        out.append((f"fuzz/{seed}", text, "yaml", "auto"))
        # every comment, and every '# ...' in a value, as a suppression nothing uses
        out.append(
            (f"fuzz/{seed}/ignore", text.replace("# ", "# jobspec: ignore[JS8] "), "yaml", "auto")
        )
    return out


CORPUS = corpus()
FUZZ = fuzz_corpus()


def _analyse(language: str, version_rules: str, target: str = "rfc"):
    def analyse(text: str):
        if language == "script":
            return Document(text, LineIndex(text), None, [], "script"), batch.check_script(text)
        doc = parse(text, language)
        return doc, check(doc, version_rules=version_rules, target=target)

    return analyse


def _apply(text: str, fix) -> str:
    for e in sorted(fix.edits, key=lambda e: e.start, reverse=True):
        text = text[: e.start] + e.text + text[e.end :]
    return text


def hold_safe_fixes(text: str, language: str, version_rules: str, target: str = "rfc") -> int:
    """Apply each safe fix alone, then `check --fix`, and hold them to what Flux reads.
    Returns how many safe fixes were tried."""
    try:
        before = reads(text, language)
    except Unreadable:
        return 0  # Flux reads nothing: nothing to keep
    analyse = _analyse(language, version_rules, target)
    doc, diags = analyse(text)
    tried = 0
    for d in diags:
        for fix in fixes.fixes_for(doc, d):
            if not fix.safe:
                continue
            tried += 1
            new = _apply(text, fix)
            try:
                after = reads(new, language)
            except Unreadable as exc:
                raise AssertionError(f"{fix.title}: Flux reads nothing after it: {exc}") from None
            if fix.code in fixes.COSMETIC:
                assert same(before, after), (fix.title, differences(before, after), new)
            elif language == "script":  # another scheduler's option written as Flux's
                check_habit_repair(text, d, fix.edits)
            else:
                check_repair(doc, d, before, after)
    fixed, applied = fixes.apply_fixes(analyse, text)
    after = reads(fixed, language)
    if not any(d.severity == Severity.ERROR for d in diags) or all(
        code in fixes.COSMETIC for code, _ in applied
    ):
        assert same(before, after), (applied, differences(before, after), fixed)
    return tried


@pytest.mark.parametrize("name,text,language,rules", CORPUS, ids=[c[0] for c in CORPUS])
def test_safe_fixes_keep_what_flux_reads(name, text, language, rules):
    hold_safe_fixes(text, language, rules)


@pytest.mark.parametrize("target", [t for t in TARGETS if t != "rfc"])
def test_a_repair_is_safe_only_where_the_target_calls_it_an_error(target):
    """Under a --target that accepts a value the RFC refuses, its finding is a warning:
    the repair is then not safe (check_repair holds every safe repair to an error)."""
    for _, text, language, rules in CORPUS:
        if language != "script":
            hold_safe_fixes(text, language, rules, target)


def test_safe_fixes_keep_what_flux_reads_on_fuzzed_documents():
    tried = sum(hold_safe_fixes(text, lang, rules) for _, text, lang, rules in FUZZ)
    assert tried > 100  # the generator's traps and suppressions do reach the fixes


def test_the_corpus_reaches_every_safe_rule():
    """Each safe rule's fix is tried somewhere, so the test above holds it."""
    seen = set()
    for _, text, language, rules in CORPUS:
        doc, diags = _analyse(language, rules)(text)
        seen |= {f.code for d in diags for f in fixes.fixes_for(doc, d) if f.safe}
    assert seen == fixes.SAFE, fixes.SAFE - seen


def test_every_safe_rule_is_cosmetic_or_a_declared_repair_of_an_error():
    assert fixes.SAFE == fixes.COSMETIC | fixes.REPAIRS
    assert not fixes.COSMETIC & fixes.REPAIRS
    assert fixes.REPAIRS == set(DECLARED) | {"JS608", "JS609"} | HABITS
    for code in fixes.REPAIRS:
        assert RULES[code].severity == Severity.ERROR, code
    assert "JS515" not in fixes.SAFE  # `after` -> `afterstart`: another value, on a warning


# ------------------------------------------------------------------ the cases found
DATA = REPO / "tests" / "data" / "fix_safety"


def _fix_titles(path: Path, safe: bool) -> dict[str, list[str]]:
    text = path.read_text()
    language = _language(path.name, text)
    doc, diags = _analyse(language, "auto")(text)
    out: dict[str, list[str]] = {}
    for d in diags:
        for f in fixes.fixes_for(doc, d):
            if f.preferred and f.safe == safe:
                out.setdefault(d.code, []).append(doc.text[d.start : d.end])
    return out


def test_a_suppression_inside_a_value_is_not_removed_by_fix():
    text = (DATA / "suppressions.jobspec.yaml").read_text()
    fixed, applied = fixes.apply_fixes(_analyse("yaml", "auto"), text)
    assert len(applied) == 3  # the three real comments, one in a flow mapping
    assert "version: 999\n" in fixed and "    with:\n" in fixed and "count: 1,\n" in fixed
    for kept in (
        '"--note=a # jobspec: ignore[JS313]"',
        "'b # jobspec: ignore'",
        "        # jobspec: ignore[JS407]\n",
        "one # jobspec: ignore\n",
        "        # jobspec: ignore[JS407] second line",
        "# jobspec: ignore[JS905]\n",  # removing it would add a line to the |+ value
    ):
        assert kept in fixed, kept
    assert same(reads(text, "yaml"), reads(fixed, "yaml"))


def test_script_suppressions_are_removed_only_where_they_are_comments():
    # in a directive's quoted or triple-quoted word, an echo's string, a here-document,
    # and after a here-document (the shell's state there is not followed): none safe
    assert _fix_titles(DATA / "suppress-in-strings.sh", safe=True) == {}
    unsafe = _fix_titles(DATA / "suppress-in-strings.sh", safe=False)["JS913"]
    assert len(unsafe) >= 3  # the here-document's at least: only a shell can tell
    assert len(_fix_titles(DATA / "suppress-removable.sh", safe=True)["JS913"]) == 5
    for name in ("python-script.sh", "shebang-argument.sh"):  # not the shell's comments
        assert _fix_titles(DATA / name, safe=True) == {}, name


def test_guessed_repairs_and_shared_values_are_unsafe():
    safe = _fix_titles(DATA / "guesses.jobspec.yaml", safe=True)
    assert safe == {"JS527": ["420"]}  # the entry with data is a file; the other may not be
    unsafe = _fix_titles(DATA / "guesses.jobspec.yaml", safe=False)
    assert sorted(unsafe) == ["JS313", "JS409", "JS410", "JS525", "JS527"]
    assert len(unsafe["JS313"]) == 3  # shell syntax, an assignment, null
    shared = _fix_titles(DATA / "aliases.jobspec.yaml", safe=True)
    assert shared == {"JS407": ["12"]}  # the one value no alias shares
    unsafe = _fix_titles(DATA / "aliases.jobspec.yaml", safe=False)
    assert unsafe == {"JS410": ["42"]}  # inside the anchored mapping job shares with user


def test_no_fix_rewrites_an_anchor_a_tag_or_an_alias():
    text = (DATA / "aliases.jobspec.yaml").read_text()
    doc, diags = _analyse("yaml", "auto")(text)
    for d in diags:
        for f in fixes.fixes_for(doc, d):
            for e in f.edits:
                assert text[e.start : e.end][:1] not in ("&", "!", "*"), f.title


def test_on_a_document_with_no_error_fix_changes_only_the_writing():
    text = (DATA / "no-errors.jobspec.yaml").read_text()
    fixed, applied = fixes.apply_fixes(_analyse("yaml", "auto"), text)
    assert sorted(c for c, _ in applied) == ["JS905"] * 5 + ["JS913"]
    assert "scheme: after\n" in fixed  # JS515's rename is another value: unsafe
    assert same(reads(text, "yaml"), reads(fixed, "yaml"))


def test_json_repairs_stay_json():
    for name in ("v1-missing-system.jobspec.json", "v1-missing-duration.jobspec.json"):
        text = (DATA / name).read_text()
        fixed, applied = fixes.apply_fixes(_analyse("json", "auto"), text)
        assert applied, name
        assert json.loads(fixed)["attributes"]["system"]["duration"] == 0
    fixed, _ = fixes.apply_fixes(
        _analyse("json", "auto"), (DATA / "v1-missing-system.jobspec.json").read_text()
    )
    assert json.loads(fixed)["tasks"][0]["command"] == ["app", "--fast"]


def test_the_oracle_sees_a_changed_value():
    """The comparisons above can fail: a suppression removed from inside a string is a
    change to what Flux reads, and one removed from a here-document too."""
    text = (DATA / "suppressions.jobspec.yaml").read_text()
    cut = text.replace("'b # jobspec: ignore'", "'b'")
    assert differences(reads(text, "yaml"), reads(cut, "yaml")) == [("tasks", 0, "command", 2)]
    script = (DATA / "suppress-in-strings.sh").read_text()
    for old, new in (
        (" # jobspec: ignore[JS596]\nEOT", "\nEOT"),
        ('"a # jobspec: ignore[JS570]"', '"a"'),
    ):
        assert not same(reads(script, "script"), reads(script.replace(old, new), "script"))
    assert same(
        reads(script, "script"),
        reads(script.replace("  # jobspec: ignore[JS596]\n", "\n"), "script"),
    )
