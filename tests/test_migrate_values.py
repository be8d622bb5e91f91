"""The migration engine on the values and texts schedulers read differently from what a
plain reading suggests, each class held to what real sbatch 22.05 and real Flux 0.88 were
seen to do (the real-tool tiers, tests/slurm/test_slurm_migrate_values.py and
tests/flux/test_flux_migrate.py, hold the same claims against the tools themselves).

Regression cases: convert-crlf-env-directive-in-line, convert-crlf-env-reaches-flux,
convert-insert-at-eof-without-newline."""

from __future__ import annotations

import pytest

from jobspec_lsp.migrate import convert
from jobspec_lsp.script import directives


def flux_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith("#flux:")]


# ----------------------------------------------------------------------- line ends
@pytest.mark.parametrize(
    "body",
    [
        "cd $SLURM_SUBMIT_DIR\r\n",  # the --env line inserted after the directives
        "srun ./a\r\n",
    ],
)
def test_a_crlf_script_gets_crlf_lines_each_on_its_own(body):
    """convert-crlf-env-directive-in-line: a line inserted after the last directive went
    between its text and its CR LF."""
    text = "#!/bin/bash\r\n#SBATCH -N 2\r\n#SBATCH --mem=4G -t 5\r\n" + body
    out = convert.convert(text).text
    assert "\n" not in out.replace("\r\n", "")  # every line ends CR LF, none is glued
    assert out.count("\r\n") == len(out.splitlines())
    read = directives.read(out.replace("\r\n", "\n"))
    assert not read.problems
    if "SUBMIT_DIR" in body:
        assert "#flux: --env=SUBMIT_DIR=$PWD\r\n" in out


def test_a_crlf_script_loses_a_whole_line_with_its_cr():
    text = "#!/bin/bash\r\n#SBATCH -n 2\r\n#SBATCH --no-requeue\r\nhostname\r\n"
    out = convert.convert(text).text
    assert "\r\n\r\n" not in out and "\r\r" not in out


@pytest.mark.parametrize(
    "text",
    [
        "#!/bin/bash",  # nothing but a #! line: the default size goes after it
        "#!/bin/bash\n#SBATCH -N 2",  # the last directive line has no newline
        "#!/bin/bash\n#SBATCH -N 2\ncd $SLURM_SUBMIT_DIR",
    ],
)
def test_a_line_inserted_at_the_end_starts_a_line_of_its_own(text):
    """convert-insert-at-eof-without-newline: `#!/bin/bash#flux: -n 1` broke the #! line."""
    out = convert.convert(text, "slurm").text
    assert out.startswith("#!/bin/bash\n")
    assert all(ln.startswith(("#!", "#flux: ", "cd ")) for ln in out.splitlines())
    assert flux_lines(out)
