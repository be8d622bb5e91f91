"""`jobspec-lsp`: the language server's entry point. Importing the handler modules
registers their features on :data:`jobspec_lsp.lsp.server.server`."""

from __future__ import annotations

import argparse
import importlib.util
import logging
import sys

from jobspec_lsp import __version__
from jobspec_lsp.lsp import assist, editing, navigation, tcp  # noqa: F401  (the first three: imported, they register their features)
from jobspec_lsp.lsp.server import server


# ---------------------------------------------------------------------- entry point
def main(argv=None, prog: str = "jobspec-lsp") -> int:
    """The server's command line; ``prog``: how the user called it (`jobspec lsp`)."""
    ap = argparse.ArgumentParser(prog=prog, description="Flux jobspec language server.")
    ap.add_argument("--version", action="version", version=f"jobspec-lsp {__version__}")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (default)")
    group.add_argument(
        "--tcp",
        metavar="HOST:PORT",
        help="listen on a TCP socket (HOST empty: 127.0.0.1); each connection gets its own "
        "server with its own state. No authentication: anyone who can connect can use the "
        "server; keep it on loopback",
    )
    group.add_argument(
        "--ws",
        metavar="HOST:PORT",
        help="listen for WebSocket connections (no authentication either)",
    )
    ap.add_argument("--log-level", default="WARNING", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    args = ap.parse_args(argv)
    logging.basicConfig(
        stream=sys.stderr, level=args.log_level, format="jobspec-lsp %(levelname)s %(message)s"
    )
    spec = args.tcp or args.ws
    host, port = "", ""
    if spec:
        host, _, port = spec.rpartition(":")
        if not port.isdigit():
            ap.error(f"expected HOST:PORT, not {spec!r}")
        if args.ws:
            if importlib.util.find_spec("websockets") is None:  # pygls serves WebSocket with it
                print(
                    "jobspec-lsp: --ws needs the websockets package (pip install 'pygls[ws]')",
                    file=sys.stderr,
                )
                return 2
    # Work on big documents runs in threads (pure Python, holding the GIL in turns); a
    # shorter switch interval than the default 5 ms lets the event loop answer small
    # requests meanwhile without waiting several intervals (benchmarks/bench_concurrency.py)
    sys.setswitchinterval(0.001)
    if args.tcp:
        argv_out = [sys.executable, "-m", "jobspec_lsp", "lsp", "--log-level", args.log_level]
        tcp.serve(host or "127.0.0.1", int(port), argv_out)
    elif args.ws:
        server.start_ws(host or "127.0.0.1", int(port))
    else:
        server.start_io()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
