"""`jobspec mcp [--target T] [--site DIR]`: the Model Context Protocol server of
:mod:`jobspec_lsp.mcp` over stdio, in the current folder (its configuration). Without the
SDK (the ``mcp`` extra) it says how to install it, exit 2."""

from __future__ import annotations

import sys
from pathlib import Path

from jobspec_lsp.boundary import load
from jobspec_lsp.cli.startup import started

# the server and the SDK it loads: where this command runs, and nowhere else
SERVE = "jobspec_lsp.mcp.server:serve"


def run(args) -> int:
    try:
        serve = load(SERVE)
    except ImportError as err:  # the SDK is an extra
        print(
            f"jobspec mcp: error: the MCP SDK is not installed ({err}): "
            "pip install 'jobspec-lsp[mcp]'",
            file=sys.stderr,
        )
        return 2
    started()  # a server runs for hours: its collector is on
    return int(serve(Path.cwd(), args.target, args.site))
