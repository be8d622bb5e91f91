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
    proc = subprocess.Popen([SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        proc.stdin.write(frame(b"{this is not json"))
        proc.stdin.write(frame(b'{"jsonrpc": "2.0", "id": 6, "method": "no/params/at/all"}'))
        proc.stdin.write(frame(b'{"jsonrpc": "2.0", "id": 7, "method": "no/such/method", '
                               b'"params": {}}'))
        proc.stdin.write(frame(json.dumps({"jsonrpc": "2.0", "id": 8, "method": "initialize",
                                           "params": {"capabilities": {}, "processId": None}})
                               .encode()))
        proc.stdin.flush()
        answers = {}
        while 8 not in answers:
            msg = read_message(proc.stdout)
            if "id" in msg:
                answers[msg["id"]] = msg
        assert "error" in answers[7]                      # unknown method: an error, not a crash
        assert "capabilities" in answers[8]["result"]      # and the server still works
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
