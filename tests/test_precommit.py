"""The pre-commit hooks, run by the real pre-commit (`try-repo`) in a throwaway repo:
the first run fixes and fails, the second passes; the scripts hook sees only batch
scripts."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from helpers import REPO

from jobspec_lsp.cli import precommit
from jobspec_lsp.text.sources import SCRIPT_SUFFIXES

MESSY = """version: 1
tasks:
- command: [ app ]
  slot: task
  count: {per_slot: 1}
resources:
- type: slot
  count: 1
  label: task
  with:
  - {type: core, count: 1}
attributes:
  system: {duration: 0}
"""
TIDY = """version: 1
resources:
  - type: slot
    count: 1
    label: task
    with:
      - {type: core, count: 1}
tasks:
  - command: [app]
    slot: task
    count: {per_slot: 1}
attributes:
  system: {duration: 0}
"""


def git(*args, cwd):
    env = dict(
        os.environ,
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.invalid",
    )
    subprocess.run(
        ["git", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args],
        cwd=cwd,
        env=env,
        check=True,
        capture_output=True,
    )


def test_precommit_try_repo(tmp_path):
    pre_commit = Path(sys.executable).parent / "pre-commit"
    assert pre_commit.exists(), "pre-commit is missing: install the test extras"
    # the hook repository: this checkout's files, committed in a fresh repo
    hook_repo = tmp_path / "hooks"
    files = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for f in filter(None, files):
        src = REPO / f
        if src.is_file():
            dst = hook_repo / f
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    git("init", "-q", cwd=hook_repo)
    git("add", "-A", cwd=hook_repo)
    git("commit", "-q", "-m", "hooks", cwd=hook_repo)
    # the user's repository
    work = tmp_path / "work"
    work.mkdir()
    git("init", "-q", cwd=work)
    (work / "run.jobspec.yaml").write_text(MESSY)
    (work / "notes.yaml").write_text("a:   [1,2]\n")  # not a jobspec name: left alone
    git("add", "-A", cwd=work)
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"))

    def run(hook):
        return subprocess.run(
            [str(pre_commit), "try-repo", str(hook_repo), hook, "--all-files"],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )

    first = run("jobspec-fmt")
    assert first.returncode == 1, first.stdout + first.stderr
    assert "files were modified by this hook" in first.stdout
    assert (work / "run.jobspec.yaml").read_text() == TIDY
    assert (work / "notes.yaml").read_text() == "a:   [1,2]\n"
    git("add", "-A", cwd=work)
    second = run("jobspec-fmt")
    assert second.returncode == 0, second.stdout + second.stderr
    check = run("jobspec-check")
    assert check.returncode == 0, check.stdout + check.stderr
    (work / "run.jobspec.yaml").write_text(MESSY.replace("slot: task", "slot: tsak"))
    git("add", "-A", cwd=work)
    broken = run("jobspec-check")
    assert broken.returncode == 1 and "JS307" in broken.stdout
    # the project configuration reaches the hook: the code ignored there passes
    (work / "jobspec.toml").write_text('ignore = ["JS307"]\n')
    git("add", "-A", cwd=work)
    configured = run("jobspec-check")
    assert configured.returncode == 0, configured.stdout + configured.stderr
    # a suppression comment, unused, is a warning; failing on warnings is a config key
    (work / "jobspec.toml").write_text("exit-non-zero-on-warning = true\n")
    (work / "run.jobspec.yaml").write_text(
        TIDY.replace("slot: task", "slot: task  # jobspec: ignore")
    )
    git("add", "-A", cwd=work)
    strict = run("jobspec-check")
    assert strict.returncode == 1 and "JS913" in strict.stdout, strict.stdout
    (work / "jobspec.toml").unlink()
    (work / "run.jobspec.yaml").write_text(TIDY)
    # batch scripts: a bad directive fails the scripts hook; a plain shell script, a
    # Slurm-only one and the jobspec are not its business
    (work / "sim.sh").write_text(SCRIPT.replace("-t 10", "--tme 10"))
    (work / "plain.sh").write_text(PLAIN)
    (work / "slurm.sh").write_text("#!/bin/sh\n#SBATCH -N 2\nsrun ./sim\n")
    (work / "job.flux").write_text(SCRIPT)
    git("add", "-A", cwd=work)
    scripts = run("jobspec-check-scripts")
    assert scripts.returncode == 1, scripts.stdout + scripts.stderr
    assert "sim.sh:3:8: error[JS570] flux batch has no option --tme" in scripts.stdout
    for other in ("plain.sh", "slurm.sh", "job.flux", "run.jobspec.yaml"):
        assert other not in scripts.stdout, scripts.stdout
    assert run("jobspec-check").returncode == 0  # the jobspec hook does not read scripts
    (work / "sim.sh").write_text(SCRIPT)
    git("add", "-A", cwd=work)
    fixed = run("jobspec-check-scripts")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    # only plain scripts: the hook runs and passes without a word
    for f in ("sim.sh", "job.flux"):
        (work / f).unlink()
    git("add", "-A", cwd=work)
    plain = run("jobspec-check-scripts")
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert "jobspec check (batch scripts)" in plain.stdout and "error" not in plain.stdout


SCRIPT = "#!/bin/bash\n#flux: -N2 -n4\n#flux: -t 10\n\nflux run ./sim\n"
PLAIN = "#!/bin/sh\n# flux run is not a directive\necho hello\n"


def test_check_scripts_hook_takes_only_batch_scripts(tmp_path, capsys):
    sim = tmp_path / "sim.sh"
    sim.write_text(SCRIPT.replace("-t 10", "--tme 10"))
    plain = tmp_path / "plain.sh"
    plain.write_text(PLAIN)
    assert precommit.main(["check-scripts", str(plain)]) == 0
    assert capsys.readouterr() == ("", "")  # nothing checked, nothing said
    # the hook's own args come first; they reach `jobspec check`
    assert precommit.main(["check-scripts", str(plain), str(sim)]) == 1
    out = capsys.readouterr().out
    assert f"{sim}:3:8: error[JS570]" in out and "plain.sh" not in out
    assert precommit.main(["check-scripts", "--ignore", "JS570", str(plain), str(sim)]) == 0
    capsys.readouterr()
    # an unreadable file is kept, so `jobspec check` says why
    assert precommit.main(["check-scripts", str(tmp_path / "gone.sh")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert precommit.main(["nothing"]) == 2


def test_scripts_hook_files_are_the_directory_search_suffixes():
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    pattern = re.compile(hooks["jobspec-check-scripts"]["files"])
    for suffix in SCRIPT_SUFFIXES:
        assert pattern.search(f"jobs/run{suffix}"), suffix
    for other in ("run.py", "run.jobspec.yaml", "shell.sh.orig"):
        assert not pattern.search(other), other
