"""Write the playground's static site (scripts/build-web runs this, with the npm tools'
folder): Pyodide's runtime files, the page bundled with esbuild, and one zip of the
Python it runs (this checkout's jobspec_lsp with its grammars and rules.md, as the wheel
has them, and the pure-Python dependencies of the Python running this).

The site is written aside and renamed into place whole; an OUT that exists must be an
earlier build (its build.json says so) or empty, and is replaced.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

WEB = Path(__file__).resolve().parent
REPO = WEB.parent
sys.path.insert(0, str(REPO))  # the checkout's package, whatever the Python has installed

# Pyodide's runtime: what loadPyodide() fetches from its indexURL (no package of its
# own set is loaded: the lock file is read, nothing it lists)
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",  # its version and licence (MPL-2.0)
)
# the pure-Python dependencies the package imports in the browser (pygls and lsprotocol
# are the language server's only); PyYAML without its libyaml extension (Pyodide's npm
# distribution has no package set): its pure-Python reader, which web/yamlcompat.py makes
# read as libyaml does (tests/web/test_pure_yaml.py holds its findings to libyaml's)
DEPENDENCIES = ("yaml", "lark", "parsedatetime")
GENERATOR = "jobspec-lsp scripts/build-web"
STATIC = ("index.html", "style.css", "worker.js")
# the page's examples: (file, title); the first from the package's own examples/
EXAMPLES = (
    (REPO / "examples" / "broken-v1.jobspec.yaml", "A jobspec with the usual mistakes"),
    (WEB / "examples" / "flux.sh", "A Flux batch script"),
    (WEB / "examples" / "slurm.sh", "A Slurm script to convert"),
    (WEB / "examples" / "lsf.sh", "An LSF script to convert"),
    (WEB / "examples" / "pbs.sh", "A PBS script to convert"),
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="scripts/build-web", description=__doc__)
    ap.add_argument("out", type=Path, help="the folder to write the site to")
    ap.add_argument("--node-modules", type=Path, required=True)
    ap.add_argument("--docs-url", help="the documentation site (rule pages: URL/rules/js202/)")
    ap.add_argument("--site", type=Path, help="a site profile folder to bake in")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)

    from jobspec_lsp import __version__
    from jobspec_lsp.diagnostics import DOCS_URL

    out: Path = args.out.resolve()
    if out.exists() and any(out.iterdir()) and not _ours(out):
        print(f"build-web: {out} is not empty and not a playground build: not replaced",
              file=sys.stderr)  # fmt: skip
        return 2
    tmp = out.parent / f".{out.name}.tmp.{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        config = {
            "generator": GENERATOR,
            "version": __version__,
            "docsUrl": args.docs_url or DOCS_URL,
            "pyodide": _pyodide(args.node_modules, tmp / "pyodide"),
            "site": _site(args.site, tmp / "site") if args.site else None,
        }
        config["python"] = _python_zip(tmp / "jobspec.zip")
        config["python"]["bytecode"] = _precompiled(args.node_modules, tmp / "jobspec.zip")
        config["python"]["digest"] = _digest(tmp / "jobspec.zip")
        config["examples"] = _examples(tmp / "examples")
        _bundle(args.node_modules, tmp)
        for name in STATIC:
            shutil.copy2(WEB / name, tmp / name)
        config["files"] = {p: _digest(tmp / p) for p in ("app.js", "worker.js", "style.css")}
        _stamp(tmp / "index.html", config)
        (tmp / "build.json").write_text(json.dumps(config, indent=2) + "\n")
        if out.exists():
            old = out.parent / f".{out.name}.old.{os.getpid()}"
            out.rename(old)
            tmp.rename(out)
            shutil.rmtree(old)
        else:
            tmp.rename(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not args.quiet:
        size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        print(f"build-web: {out} ({size / 1e6:.1f} MB)", file=sys.stderr)
    return 0


def _ours(out: Path) -> bool:
    try:
        return json.loads((out / "build.json").read_text()).get("generator") == GENERATOR
    except (OSError, ValueError, AttributeError):
        return False


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _pyodide(node_modules: Path, dest: Path) -> str:
    src = node_modules / "pyodide"
    dest.mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(src / name, dest / name)
    return json.loads((src / "package.json").read_text())["version"]


def _add_tree(zf: zipfile.ZipFile, src: Path, arc: str) -> None:
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith((".so", ".pyd", ".pyc", ".pyi")) or f == "py.typed":
                continue
            path = Path(root) / f
            _add(zf, path, f"{arc}/{path.relative_to(src).as_posix()}")


def _add(zf: zipfile.ZipFile, path: Path, arc: str) -> None:
    info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))  # the same bytes each build
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    zf.writestr(info, path.read_bytes())


def _python_zip(dest: Path) -> dict:
    """jobspec.zip: unpacked by the worker into a folder on sys.path."""
    versions = {}
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        # as the wheel lays them out (pyproject.toml's force-include)
        _add_tree(zf, REPO / "jobspec_lsp", "jobspec_lsp")
        _add_tree(zf, REPO / "grammars", "jobspec_lsp/grammars")
        _add(zf, REPO / "docs" / "rules.md", "jobspec_lsp/docs/rules.md")
        for name in DEPENDENCIES:
            mod = importlib.import_module(name)
            _add_tree(zf, Path(mod.__file__).parent, name)  # type: ignore[arg-type]
            versions[name] = getattr(mod, "__version__", "")
        _add(zf, WEB / "playground.py", "jobspec_playground.py")
        _add(zf, WEB / "yamlcompat.py", "yamlcompat.py")
    return {"digest": _digest(dest), "dependencies": versions}


def _examples(dest: Path) -> list[dict]:
    dest.mkdir()
    out = []
    for path, title in EXAMPLES:
        shutil.copy2(path, dest / path.name)
        out.append({"file": f"examples/{path.name}", "name": path.name, "title": title})
    return out


def _precompiled(node_modules: Path, zipped: Path) -> bool:
    """jobspec.zip with each module's bytecode as Pyodide's Python compiles it (web/
    precompile.mjs, under Node.js; kept beside the npm tools by the sources' digest, so a
    build of the same sources is quick). Without Node.js the sources alone (said)."""
    cache = node_modules.parent / "bytecode" / f"{_digest(zipped)}.zip"
    if not cache.exists():
        node = shutil.which("node") or shutil.which("nodejs")
        if node is None:
            print("build-web: no node: the Python is not precompiled", file=sys.stderr)
            return False
        cache.parent.mkdir(exist_ok=True)
        part = cache.with_suffix(f".tmp.{os.getpid()}")
        got = subprocess.run(
            [node, str(WEB / "precompile.mjs"), str(node_modules), str(zipped), str(part)],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if got.returncode != 0:
            part.unlink(missing_ok=True)
            why = (got.stderr.strip().splitlines() or ["?"])[-1]
            print(f"build-web: the Python is not precompiled: {why}", file=sys.stderr)
            return False
        part.rename(cache)
    shutil.copy2(cache, zipped)
    return True


def _site(directory: Path, dest: Path) -> dict:
    """A site profile baked in: its TOML, its R (as R.json, wherever [resource] path has
    it), its CLI plugins; checked here as `jobspec check --site` would read it."""
    from jobspec_lsp.site import profile

    try:
        site = profile.load(directory)
    except profile.ProfileError as err:
        raise SystemExit(f"build-web: --site {directory}: {err}") from None
    dest.mkdir()
    files = {}
    for path in sorted(directory.glob("*.toml")):
        shutil.copy2(path, dest / path.name)
        files[path.name] = f"site/{path.name}"
    if site.r_path:
        shutil.copy2(site.r_path, dest / "R.json")
        files["R.json"] = "site/R.json"
    for path in sorted((directory / "cli" / "plugins").glob("*.py")):
        shutil.copy2(path, dest / path.name)
        files[path.name] = f"site/{path.name}"
    return {"name": directory.resolve().name, "files": files}


def _bundle(node_modules: Path, dest: Path) -> None:
    esbuild = node_modules / ".bin" / "esbuild"
    subprocess.run(
        [
            str(esbuild),
            str(WEB / "src" / "app.js"),
            "--bundle",
            "--minify",
            "--format=esm",
            "--target=es2020",
            "--legal-comments=eof",
            "--log-level=warning",
            f"--outfile={dest / 'app.js'}",
        ],
        check=True,
        env={**os.environ, "NODE_PATH": str(node_modules)},
        cwd=node_modules.parent,  # esbuild resolves the packages from here
    )


def _stamp(index: Path, config: dict) -> None:
    """index.html with each file's address carrying its digest (a browser's cache never
    mixes two builds) and the versions in its footer."""
    text = index.read_text()
    for name, digest in config["files"].items():
        text = text.replace(f'"{name}"', f'"{name}?v={digest}"')
    text = text.replace("{{version}}", config["version"]).replace("{{pyodide}}", config["pyodide"])
    index.write_text(text)


if __name__ == "__main__":
    sys.exit(main())
