"""One detector for the kind of a document (kinds.detect): the CLI and the server
ask it, and each kind answers the features it offers."""

from __future__ import annotations

import pytest
from helpers import run_cli

from jobspec_lsp import kinds

JOB = "version: 1\nresources: []\ntasks: []\n"


@pytest.mark.parametrize(
    "name, text, language_id, explicit, kind",
    [
        ("job.yaml", JOB, None, False, "jobspec-yaml"),
        ("a.jobspec.json", '{"version": 1}', None, False, "jobspec-json"),
        ("jobspec.yaml", "anything: 1\n", "yaml", False, "jobspec-yaml"),  # by name
        ("job.yaml", "name: x\n", "yaml", False, "unknown"),  # other YAML is not ours
        ("job.yaml", "name: x\n", None, True, "jobspec-yaml"),  # ...unless named on the CLI
        ("run.sh", "#!/bin/sh\n#flux: -N2\nhostname\n", None, False, "flux-script"),
        ("run.sh", "#!/bin/sh\n#SBATCH -N2\nsrun hostname\n", "shellscript", False, "slurm-script"),
        ("run.sh", "#!/bin/sh\n#flux: -N1\n#SBATCH -N2\n", None, False, "flux-script"),
        ("run.lsf", "#!/bin/sh\n#BSUB -n 4\n", None, False, "lsf-script"),
        ("run.pbs", "#PBS -l nodes=2\n", None, True, "pbs-script"),
        ("run.sh", "#!/bin/sh\nflux run -n4 ./a\n", "shellscript", False, "flux-script"),
        ("run.sh", "#!/bin/sh\necho hi\n", "shellscript", False, "unknown"),
        ("run.sh", "#!/bin/sh\necho hi\n", None, True, "flux-script"),  # a script named
        ("notes.md", "#flux: -N1\n", "markdown", False, "unknown"),
        ("x.yaml", "#!/bin/sh\n#flux: -N1\nkey: 1\n", "yaml", False, "flux-script"),
        # a `flux:` key of other YAML is no sentinel: Flux's batch needs a #! line
        ("values.yaml", "spec:\n  flux:\n    enabled: true\n", "yaml", False, "unknown"),
        ("values.yaml", "spec:\n  flux:\n    enabled: true\n", None, True, "jobspec-yaml"),
        # a jobspec with a #PBS comment is still a jobspec
        ("job.yaml", "#PBS -l nodes=1\n" + JOB, None, True, "jobspec-yaml"),
        ("job", "#BSUB -n 4\n" + JOB, None, True, "jobspec-yaml"),
    ],
)
def test_detect(name, text, language_id, explicit, kind):
    assert kinds.detect(name, text, language_id, explicit=explicit).name == kind


def test_every_kind_is_a_kind_and_scripts_are_never_formatted():
    assert set(kinds.BY_NAME) == set(kinds.KINDS)
    for k in kinds.BY_NAME.values():
        assert k.features <= set(kinds.FEATURES)
        if k.is_script:
            assert not k.offers("format") and k.offers("diagnostics")


def test_an_lsf_script_is_not_reported_as_broken_yaml(tmp_path):
    job = tmp_path / "job.txt"  # no #!, no script suffix: once read as YAML
    job.write_text("#BSUB -n 4\n#BSUB -W 30\nmpirun ./a\n")
    got = run_cli("check", job)
    assert got.returncode == 0, got.stdout
    assert b"JS901" not in got.stdout and b"LSF batch script" in got.stderr
