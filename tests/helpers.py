"""Shared test helpers: paths, the RFC corpus, running the installed CLI."""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("JOBSPEC_SHARED", REPO.parent / "shared"))
CORPUS = SHARED / "corpus" / "rfc" / "data"


RFC_DATA = REPO / "tests" / "data" / "rfc"


def have_corpus() -> bool:
    return (CORPUS / "spec_14").is_dir()


def rfc_files(spec: str) -> list[Path]:
    """The RFC use cases of ``spec`` ("spec_14", "spec_25"): the project's own
    fixtures (tests/data/rfc, always there), then the RFC repository's own files from
    ../shared/corpus when that is beside the checkout. Both carry the same names."""
    own = sorted((RFC_DATA / spec).glob("*.yaml"))
    assert own, f"no fixtures in {RFC_DATA / spec}"
    return own + sorted((CORPUS / spec).glob("*.yaml"))


def own_rfc_file(spec: str, name: str) -> Path:
    return RFC_DATA / spec / name


def rfc_id(path: Path) -> str:
    return ("own/" if RFC_DATA in path.parents else "rfc/") + path.name


def jobspec_exe() -> str:
    """The installed `jobspec` console script next to the running interpreter."""
    exe = Path(sys.executable).parent / "jobspec"
    if not exe.exists():
        raise RuntimeError(f"the jobspec console script is not installed next to {sys.executable}")
    return str(exe)


def run_cli(*args, input=None, cwd=None, timeout=60):
    return subprocess.run(
        [jobspec_exe(), *map(str, args)], input=input, cwd=cwd, capture_output=True, timeout=timeout
    )


def yamlls_command() -> list[str]:
    """yaml-language-server from npm (benchmarks/yamlls), installed on first use (aside,
    then renamed into place: atomic_setup.py)."""
    import shutil

    from atomic_setup import build_once, is_complete, npm_install_into

    yamlls = REPO / "benchmarks" / "yamlls"
    modules = yamlls / "node_modules"
    if not is_complete(modules):
        assert shutil.which("npm"), "npm is missing"
        build_once(
            modules,
            lambda tmp: npm_install_into(
                tmp, yamlls, ["ci", "--no-audit", "--no-fund", "--loglevel=error"]
            ),
        )
    exe = modules / "yaml-language-server" / "bin" / "yaml-language-server"
    return ["node", str(exe), "--stdio"]


async def yamlls_diagnostics(settings: dict, uri: str, text: str, expect_errors: bool) -> list:
    """The diagnostics yaml-language-server publishes for one opened document. The schema
    may load after a first publication, so wait for errors (``expect_errors``) or for 1.5 s
    without any."""
    import asyncio

    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_lsp import Client

    client = Client("yaml-language-server", yamlls_command(), settings)
    await client.start()
    try:
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        )
        await client.drain()
        assert await client.wait_publish(uri, 0, None, 30), "no diagnostics published"
        for _ in range(150 if expect_errors else 15):
            if client.publishes[uri][-1][1]["diagnostics"]:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.2)
        return client.publishes[uri][-1][1]["diagnostics"]
    finally:
        await client.stop()
