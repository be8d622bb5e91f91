"""The corpus sample (tests/data/migration/corpus, issue 35): real `flux batch --dry-run`
accepts every script the conversion writes, with the node count it chose."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from jobspec_lsp.migrate import convert

CORPUS = Path(__file__).resolve().parent.parent / "data" / "migration" / "corpus"
SCRIPTS = sorted(CORPUS.glob("*/*.sh"))


@pytest.mark.flux
@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_flux_accepts_every_converted_corpus_script(flux_exe, tmp_path, path):
    conv = convert.convert(path.read_text(), path.parent.name)
    assert not conv.refused
    job = tmp_path / "job.sh"
    job.write_text(conv.text)
    dry = subprocess.run(
        [flux_exe, "batch", "--dry-run", str(job)], capture_output=True, text=True, cwd=tmp_path
    )
    assert dry.returncode == 0, dry.stderr
    res = json.loads(dry.stdout)["resources"][0]
    assert conv.shape is not None
    if conv.shape.nodes:
        assert (res["type"], res["count"]) == ("node", conv.shape.nodes)
