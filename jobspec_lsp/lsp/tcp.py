"""`jobspec-lsp --tcp`: one language server per connection.

pygls's own TCP mode runs one server for every connection, so the documents,
settings and even the responses of two clients mix (a response can go to the
client that connected last).  Here each accepted connection gets its own
server process talking stdio, with its own state; the listener only copies
bytes between the socket and that process, and ends the process when the
client goes away (and closes the socket when the process ends).

There is no authentication: anyone who can connect can make the server read
the documents they send it (never files they name: only what a client opens
is read).  The listener therefore binds to loopback unless told otherwise,
and says so when it is told otherwise."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import sys

log = logging.getLogger("jobspec_lsp.tcp")

CHUNK = 1 << 16


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def _pump(reader: asyncio.StreamReader, writer, close_after: bool = True) -> None:
    try:
        while chunk := await reader.read(CHUNK):
            writer.write(chunk)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        if close_after:
            with contextlib.suppress(Exception):
                writer.close()


async def _serve_one(
    server_argv: list[str], reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    peer = writer.get_extra_info("peername")
    proc = await asyncio.create_subprocess_exec(
        *server_argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None
    log.info("client %s: server process %d", peer, proc.pid)
    to_server = asyncio.ensure_future(_pump(reader, proc.stdin))
    to_client = asyncio.ensure_future(_pump(proc.stdout, writer))
    try:
        await asyncio.wait({to_server, to_client}, return_when=asyncio.FIRST_COMPLETED)
        if to_server.done():  # the client went away: give the server a moment to exit
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(proc.wait(), 2)
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
        for task in (to_server, to_client):
            task.cancel()
        with contextlib.suppress(Exception):
            writer.close()
        log.info("client %s: done (server exit %s)", peer, proc.returncode)


def serve(host: str, port: int, server_argv: list[str] | None = None) -> None:
    """Listen on ``host:port`` and run ``server_argv`` (a stdio server) per connection."""
    argv = server_argv or [sys.executable, "-m", "jobspec_lsp", "lsp", "--stdio"]
    if not is_loopback(host):
        print(
            f"jobspec-lsp: warning: listening on {host}, not loopback; there is no "
            "authentication, so anyone who can reach the port can use the server",
            file=sys.stderr,
        )

    async def main() -> None:
        server = await asyncio.start_server(
            lambda r, w: _serve_one(argv, r, w), host, port, reuse_address=True
        )
        async with server:
            await server.serve_forever()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
