"""Put the language server and its pure-Python dependencies into the extension, so the
.vsix runs with the user's Python (3.10 or later) and nothing installed by them.

    python scripts/bundle_server.py [--platform linux-x64|universal] [--probe]

`npm run package` runs it first (scripts/bundle.js picks the Python: $JOBSPEC_PYTHON,
else the checkout's .venv, else python3), so the .vsix it builds always carries the
server. The Python needs pip and the server's dependencies installed (their versions
are the ones bundled); ``--probe`` only says whether this one has them.

Writes editors/vscode/bundled/: ``server.py`` (the launcher the extension runs) and
``libs/`` (jobspec-lsp built from this checkout, pygls, lsprotocol, cattrs, attrs,
lark, PyYAML, typing_extensions, exceptiongroup and tomli for Python 3.10), at the
versions installed in the running Python, the way ruff's and Microsoft's Python
tool extensions ship theirs. PyYAML's compiled libyaml module is platform code: the
linux-x64 bundle carries it for CPython 3.10-3.14 (one file each; Python loads the
one for its version), the universal bundle none, so PyYAML falls back to its
pure-Python loader there. The launcher says which one is in use.
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXT = HERE.parent
REPO = EXT.parent.parent
PURE = ["pygls", "lsprotocol", "cattrs", "attrs", "lark", "typing_extensions"]
FOR_PY310 = ["exceptiongroup", "tomli"]  # needed only by Python 3.10
PYTHONS = ["3.10", "3.11", "3.12", "3.13", "3.14"]

LAUNCHER = '''"""Starts the jobspec language server bundled in the VS Code extension."""
import os
import sys

if sys.version_info < (3, 10):
    sys.stderr.write(
        "jobspec-lsp needs Python 3.10 or later; %s is Python %s\\n"
        % (sys.executable, sys.version.split()[0])
    )
    sys.exit(3)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "libs"))

import yaml  # noqa: E402

import jobspec_lsp  # noqa: E402
from jobspec_lsp.cli import lsp_main  # noqa: E402

loader = (
    "PyYAML's compiled libyaml loader"
    if getattr(yaml, "__with_libyaml__", False)
    else "PyYAML's pure-Python loader (no compiled libyaml for this platform or Python)"
)
sys.stderr.write(
    "jobspec-lsp %s, bundled, on Python %s (%s), with %s\\n"
    % (jobspec_lsp.__version__, sys.version.split()[0], sys.executable, loader)
)
sys.exit(lsp_main())
'''


def pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                   check=True, stdout=subprocess.DEVNULL)


def pinned(name: str) -> str:
    return f"{name}=={md.version(name)}"


def missing() -> list[str]:
    """What this Python lacks to bundle the server: a recent version, pip, and the
    installed dependencies whose versions are bundled."""
    if sys.version_info < (3, 10):
        return [f"Python 3.10 or later (this is {sys.version.split()[0]})"]
    lack = []
    for name in ["pip", *PURE, "PyYAML"]:
        try:
            md.version(name)
        except md.PackageNotFoundError:
            lack.append(name)
    return lack


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--platform", choices=("linux-x64", "universal"), default="linux-x64")
    ap.add_argument("--out", default=str(EXT / "bundled"))
    ap.add_argument("--probe", action="store_true",
                    help="only check that this Python can bundle the server (exit 3 if not)")
    args = ap.parse_args()
    lack = missing()
    if lack:
        print(f"{sys.executable} cannot bundle the server: it lacks {', '.join(lack)}",
              file=sys.stderr)
        return 3
    if args.probe:
        return 0
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    libs = out / "libs"
    libs.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        # the server itself, as a wheel built from this checkout (grammars and docs in it)
        pip("wheel", "--no-deps", "-w", str(t / "own"), str(REPO))
        (wheel,) = (t / "own").glob("*.whl")
        pip("install", "--no-deps", "--no-compile", "--target", str(libs), str(wheel))
        # pure-Python dependencies at the versions this Python has
        pure = [pinned(n) for n in PURE]
        pure += ["exceptiongroup>=1.1", "tomli>=1.1"]  # Python 3.10's extras
        pip("download", "--no-deps", "--only-binary", ":all:", "--platform", "any",
            "--implementation", "py", "--abi", "none", "--python-version", "3.10",
            "-d", str(t / "pure"), *pure)
        for whl in sorted((t / "pure").glob("*.whl")):
            _unzip(whl, libs)
        # PyYAML: the Python part from any wheel, and the compiled module per CPython
        version = md.version("PyYAML")
        yaml_dir = t / "yaml"
        plats = ["manylinux_2_17_x86_64", "manylinux2014_x86_64"]
        for py in PYTHONS:
            plat_args = [a for p in plats for a in ("--platform", p)]
            try:
                pip("download", "--no-deps", "--only-binary", ":all:", *plat_args,
                    "--python-version", py, "-d", str(yaml_dir / py), f"PyYAML=={version}")
            except subprocess.CalledProcessError:
                print(f"note: no PyYAML {version} wheel for CPython {py} on linux-x64")
        wheels = sorted(yaml_dir.glob("*/*.whl"))
        if not wheels:
            raise SystemExit("no PyYAML wheel could be downloaded")
        _unzip(wheels[0], libs, compiled=False)
        if args.platform == "linux-x64":
            for whl in wheels:
                with zipfile.ZipFile(whl) as z:
                    for name in z.namelist():
                        if name.endswith(".so"):
                            z.extract(name, libs)
    for junk in list(libs.rglob("__pycache__")) + list(libs.glob("bin")):
        shutil.rmtree(junk, ignore_errors=True)
    strip = shutil.which("strip")
    for so in libs.rglob("*.so"):  # debugging symbols: most of a compiled module's size
        if strip:
            subprocess.run([strip, "--strip-unneeded", str(so)], check=False)
    (out / "server.py").write_text(LAUNCHER)
    (out / "PLATFORM").write_text(args.platform + "\n")
    so = sorted(p.name for p in libs.rglob("*.so"))
    print(f"bundled into {out}: {sum(1 for _ in libs.rglob('*.py'))} Python files, "
          f"{len(so)} compiled ({', '.join(so) or 'none'})")
    return 0


def _unzip(whl: Path, dest: Path, compiled: bool = True) -> None:
    with zipfile.ZipFile(whl) as z:
        for name in z.namelist():
            if not compiled and name.endswith(".so"):
                continue
            z.extract(name, dest)


if __name__ == "__main__":
    sys.exit(main())
