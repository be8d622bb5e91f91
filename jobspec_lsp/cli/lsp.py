"""`jobspec lsp [OPTIONS]`: the language server, its options read by its own parser
(stdio; --tcp/--ws, see `jobspec lsp -h`)."""

from __future__ import annotations

from jobspec_lsp.cli.startup import started
from jobspec_lsp.lsp.main import main as server_main


def run(argv: list[str]) -> int:
    started()  # a server runs for hours: its collector is on
    return server_main(argv, "jobspec lsp")
