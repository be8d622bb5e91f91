"""The server survives malformed JSON-RPC: raw bytes over stdio, then a real session."""

import json
import subprocess
import sys
from pathlib import Path

SERVER = str(Path(sys.executable).parent / "jobspec-lsp")


def frame(payload: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(payload) + payload


def read_message(stream):
    headers = {}
    while True:
        line = stream.readline()
        assert line, "the server closed its output"
        if line in (b"\r\n", b"\n"):
            break
        k, _, v = line.decode().partition(":")
        headers[k.strip().lower()] = v.strip()
    return json.loads(stream.read(int(headers["content-length"])))


def test_garbage_then_a_valid_session():
    proc = subprocess.Popen(
        [SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        proc.stdin.write(frame(b"{this is not json"))
        proc.stdin.write(frame(b'{"jsonrpc": "2.0", "id": 6, "method": "no/params/at/all"}'))
        proc.stdin.write(
            frame(b'{"jsonrpc": "2.0", "id": 7, "method": "no/such/method", "params": {}}')
        )
        proc.stdin.write(
            frame(
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "id": 8,
                        "method": "initialize",
                        "params": {"capabilities": {}, "processId": None},
                    }
                ).encode()
            )
        )
        proc.stdin.flush()
        answers = {}
        while 8 not in answers:
            msg = read_message(proc.stdout)
            if "id" in msg:
                answers[msg["id"]] = msg
        assert "error" in answers[7]  # unknown method: an error, not a crash
        assert "capabilities" in answers[8]["result"]  # and the server still works
        caps = answers[8]["result"]["capabilities"]
        assert caps["hoverProvider"] and caps["definitionProvider"]
        assert caps["renameProvider"]
        proc.stdin.write(frame(b'{"jsonrpc": "2.0", "id": 9, "method": "shutdown"}'))
        proc.stdin.write(frame(b'{"jsonrpc": "2.0", "method": "exit"}'))
        proc.stdin.flush()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()
        proc.stdin.close()


def test_version_and_usage():
    out = subprocess.run([SERVER, "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("jobspec-lsp ")
    bad = subprocess.run([SERVER, "--tcp", "nonsense"], capture_output=True, text=True)
    assert bad.returncode == 2 and "HOST:PORT" in bad.stderr


def _rpc(sock, stream, msg_id, method, params):
    sock.sendall(
        frame(
            json.dumps(
                {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}
            ).encode()
        )
    )
    while True:
        msg = read_message(stream)
        if msg.get("id") == msg_id and "method" not in msg:
            return msg


def _notify(sock, method, params):
    sock.sendall(frame(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode()))


def test_tcp_gives_each_connection_its_own_server():
    """Two clients at once over --tcp: each gets its own answers and sees only the
    documents it opened; one leaving does not disturb the other."""
    import socket
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([SERVER, "--tcp", f":{port}"], stderr=subprocess.PIPE)
    socks = []
    try:
        deadline = time.monotonic() + 20
        while len(socks) < 2:
            try:
                socks.append(socket.create_connection(("127.0.0.1", port), timeout=30))
            except OSError:
                assert time.monotonic() < deadline, "the server did not listen"
                time.sleep(0.1)
        (a, b) = socks
        sa, sb = a.makefile("rb"), b.makefile("rb")
        init = {"capabilities": {}, "processId": None}
        # the same request id from both clients: each answer reaches its own client
        ra, rb = _rpc(a, sa, 1, "initialize", init), _rpc(b, sb, 1, "initialize", init)
        assert ra["result"]["serverInfo"]["name"] == rb["result"]["serverInfo"]["name"]
        for sock in (a, b):
            _notify(sock, "initialized", {})
        uri_a, uri_b = "file:///a/one.jobspec.yaml", "file:///b/two.jobspec.yaml"
        for sock, uri, text in (
            (a, uri_a, "version: 1\nresouces: []\n"),
            (b, uri_b, "version: 1\ntasks: nope\n"),
        ):
            _notify(
                sock,
                "textDocument/didOpen",
                {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
            )
        pull = lambda uri: {"textDocument": {"uri": uri}}
        da = _rpc(a, sa, 2, "textDocument/diagnostic", pull(uri_a))["result"]["items"]
        db = _rpc(b, sb, 2, "textDocument/diagnostic", pull(uri_b))["result"]["items"]
        assert "JS102" in {d["code"] for d in da} and "JS102" not in {d["code"] for d in db}
        # b never opened a's document: its server knows nothing of it
        other = _rpc(b, sb, 3, "textDocument/diagnostic", pull(uri_a))
        assert not (other.get("result") or {}).get("items")
        a.close()
        time.sleep(0.5)
        again = _rpc(b, sb, 4, "textDocument/diagnostic", pull(uri_b))["result"]["items"]
        assert again == db
    finally:
        for sock in socks:
            sock.close()
        proc.kill()
        proc.wait()
        proc.stderr.close()


def test_tcp_away_from_loopback_warns_there_is_no_authentication():
    out = subprocess.run([SERVER, "--help"], capture_output=True, text=True)
    assert "No authentication" in " ".join(out.stdout.split())
    from jobspec_lsp.lsp.tcp import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("example.org")


async def test_requests_about_unopened_files_never_read_them(client, tmp_path):
    """Only what the client opened is read: a request naming any other file (here a
    broken jobspec on disk, and a FIFO that would block a reader) gets nothing back."""
    import os

    from lsprotocol import types as T

    secret = tmp_path / "secret.jobspec.yaml"
    secret.write_text("version: 1\nresources: nope\ntasks: []\nattributes: {}\n")
    fifo = tmp_path / "pipe.jobspec.yaml"
    os.mkfifo(fifo)
    for path in (secret, fifo):
        uri = path.as_uri()
        doc = T.TextDocumentIdentifier(uri)
        here = T.Position(1, 3)
        assert await client.text_document_hover_async(T.HoverParams(doc, here)) is None
        got = await client.text_document_completion_async(T.CompletionParams(doc, here))
        assert not got or not got.items
        assert not await client.text_document_document_symbol_async(T.DocumentSymbolParams(doc))
        report = await client.text_document_diagnostic_async(T.DocumentDiagnosticParams(doc))
        assert not report.items


def test_a_frame_with_a_broken_header_does_not_end_the_conversation():
    """`Content-Length: abc` and its body: the server logs it, finds the next header
    and answers the next request."""
    import threading

    proc = subprocess.Popen(
        [SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    watchdog = threading.Timer(60, proc.kill)  # a server that never answers: EOF, not a hang
    watchdog.start()
    try:
        init = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"capabilities": {}, "processId": None},
        }
        proc.stdin.write(frame(json.dumps(init).encode()))
        proc.stdin.write(b'Content-Length: abc\r\n\r\n{"jsonrpc": "2.0", "id": 2}')
        proc.stdin.write(frame(b'{"jsonrpc": "2.0", "id": 3, "method": "shutdown"}'))
        proc.stdin.flush()
        answers = {}
        while 3 not in answers:
            msg = read_message(proc.stdout)
            if "id" in msg:
                answers[msg["id"]] = msg
        assert "capabilities" in answers[1]["result"] and "result" in answers[3]
        proc.stdin.write(frame(b'{"jsonrpc": "2.0", "method": "exit"}'))
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
        assert b"malformed JSON-RPC frame" in proc.stderr.read()
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
