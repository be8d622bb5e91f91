"""docs/migration.md's launcher tables are tests/layout_cases.py's (the one place the
documented layouts live: the real-Flux tier, tests/flux/test_flux_layouts.py, holds each
converted step to them), and the test material is what issue 35 asks of it."""

from __future__ import annotations

from collections import Counter

import layout_cases as lc
from helpers import REPO


def test_migration_doc_holds_the_launcher_tables():
    doc = (REPO / "docs" / "migration.md").read_text()
    assert lc.markdown() in doc, "stale: run python tests/layout_cases.py into docs/migration.md"


def test_every_launcher_has_its_documented_rules():
    per_doc = Counter(r.doc for r in lc.RULES)
    assert set(per_doc) == set(lc.DOCS)
    assert all(n >= 4 for n in per_doc.values()), per_doc
    assert len({r.key for r in lc.RULES}) == len(lc.RULES)
    for r in lc.RULES:
        assert r.alloc in lc.ALLOCS, r.key
        assert r.layout.nodes <= lc.NODES and max(r.layout.per_node) * r.layout.cores <= (
            lc.NODE_CORES
        ), r.key  # the documented layout fits a node of the source cluster


def test_the_scripts_cover_schedulers_forms_and_layouts():
    scripts = lc.scripts()
    assert len(scripts) >= 60
    assert len({s.name for s in scripts}) == len(scripts)
    schedulers = Counter(lc.ALLOCS[s.alloc].scheduler for s in scripts)
    assert set(schedulers) == {"slurm", "lsf", "pbs"}, schedulers
    forms = Counter(st.form for s in scripts for st in s.steps)
    assert set(forms) == {*lc.FORMS, "pyxis"}, forms  # pyxis: srun rules, beside another form
    steps = [(st.rule.key, st.form) for s in scripts for st in s.steps]
    assert {k for k, _ in steps} == {r.key for r in lc.RULES}  # every rule runs
    for s in scripts:
        for st in s.steps:
            assert f"./probe {st.label}" in s.text


def test_forms_write_launch_lines_as_people_do():
    line = "mpiexec -n 8 --ppn 4 --depth=2"
    assert lc.step_lines(line, "time", "./probe s1") == [f"time {line} ./probe s1"]
    assert lc.step_lines(line, "vars", "./probe s1") == [
        "A_n=8",
        "A_ppn=4",
        "A_depth=2",
        "mpiexec -n ${A_n} --ppn ${A_ppn} --depth=${A_depth} ./probe s1",
    ]
    assert lc.step_lines(line, "held", "./probe s1") == [f'CMD="{line} ./probe s1"', "${CMD}"]
    assert lc.step_lines(line, "held_opts", "./p") == [f'LAUNCH="{line}"', "${LAUNCH} ./p"]
