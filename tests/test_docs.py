"""Docs that can be tested are: every rule documented, docs in sync with code."""

import re

from helpers import REPO

from jobspec_lsp.diagnostics import RULES
from jobspec_lsp.rules import rulesdoc


def test_rules_md_is_generated_from_the_rule_definitions():
    on_disk = (REPO / "docs" / "rules.md").read_text()
    assert on_disk == rulesdoc.render(), (
        "docs/rules.md is stale: run `python -m jobspec_lsp.rules.rulesdoc > docs/rules.md`"
    )


def test_every_rule_has_its_own_section():
    text = (REPO / "docs" / "rules.md").read_text()
    sections = re.findall(r"^### (JS\d{3})$", text, re.M)
    assert sorted(sections) == sorted(RULES)


def test_rule_metadata_is_complete():
    for code, rule in RULES.items():
        assert re.fullmatch(r"JS\d{3}", code)
        assert rule.name and rule.summary and rule.why and rule.bad and rule.good, code
        assert rule.bad != rule.good or rule.example_options.get("encoding"), code
    names = [r.name for r in RULES.values()]
    assert len(names) == len(set(names))


def test_compatibility_page_names_real_codes():
    text = (REPO / "docs" / "compatibility.md").read_text()
    for code in re.findall(r"JS\d{3}", text):
        assert code in RULES, code


def test_readme_quick_start_has_exactly_the_two_commands():
    text = (REPO / "README.md").read_text()
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", quick, re.S)
    assert [b.strip() for b in blocks] == [
        "pip install . && jobspec check examples/",
        "./scripts/test",
    ]
    ci = (REPO / ".ci" / "run").read_text()
    assert "./scripts/test" in ci


def test_migration_md_names_the_codes_the_tool_gives(tmp_path):
    """docs/migration.md's claims of a code, run: a heterogeneous job is refused with
    JS589 (an error, exit 1, nothing written); GPUs per node without a node count ask 1
    node with JS599 at the option."""
    from helpers import REPO, run_cli

    doc = (REPO / "docs" / "migration.md").read_text()
    het = tmp_path / "het.sh"
    het.write_text("#!/bin/bash\n#SBATCH -N 1 -n 2\n#SBATCH hetjob\n#SBATCH -N 2 -n 4\nsrun ./a\n")
    got = run_cli("convert", het)
    assert got.returncode == 1 and not got.stdout and "error[JS589]" in got.stderr.decode()
    assert "as a whole (JS589, an error" in doc
    gpus = tmp_path / "gpus.sh"
    gpus.write_text("#!/bin/bash\n#SBATCH --gpus-per-node=2\nsrun ./a\n")
    got = run_cli("convert", gpus)
    assert (
        "warning[JS599] --gpus-per-node=2" in got.stderr.decode() and "-N 1" in got.stdout.decode()
    )
    assert "warning at the option (JS599)" in doc
