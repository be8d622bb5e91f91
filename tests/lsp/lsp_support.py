"""Helpers for the end-to-end tests: client factory, capabilities, positions, edits."""

import sys
from pathlib import Path

from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

SERVER = [str(Path(sys.executable).parent / "jobspec-lsp")]


def recording_client() -> LanguageClient:
    """A test client that also records every publishDiagnostics with its version."""
    client = LanguageClient()
    features = dict(DEFAULT_CLIENT_FEATURES)
    default = features[T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def publish(c: LanguageClient, params: T.PublishDiagnosticsParams):
        c.published.append((params.uri, params.version, list(params.diagnostics)))
        default(c, params)

    features[T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    client.published = []
    register_lsp_features(client, features)
    return client


CONFIG = ClientServerConfig(server_command=SERVER, client_factory=recording_client)


def capabilities(pull=False, configuration=False):
    return T.ClientCapabilities(
        general=T.GeneralClientCapabilities(position_encodings=[T.PositionEncodingKind.Utf16]),
        text_document=T.TextDocumentClientCapabilities(
            diagnostic=T.DiagnosticClientCapabilities() if pull else None,
            publish_diagnostics=T.PublishDiagnosticsClientCapabilities(version_support=True),
            completion=T.CompletionClientCapabilities(
                completion_item=T.ClientCompletionItemOptions(snippet_support=True)
            ),
            hover=T.HoverClientCapabilities(content_format=[T.MarkupKind.Markdown]),
            rename=T.RenameClientCapabilities(prepare_support=True),
            document_symbol=T.DocumentSymbolClientCapabilities(
                hierarchical_document_symbol_support=True
            ),
        ),
        workspace=T.WorkspaceClientCapabilities(
            configuration=configuration,
            diagnostics=T.DiagnosticWorkspaceClientCapabilities(refresh_support=True),
        ),
    )


async def open_doc(client, name: str, text: str, language="yaml", version=1, wait=True) -> str:
    uri = f"file:///tmp/jobspec-lsp-tests/{name}"
    client.text_document_did_open(
        T.DidOpenTextDocumentParams(
            T.TextDocumentItem(uri=uri, language_id=language, version=version, text=text)
        )
    )
    if wait:
        await wait_published(client, uri, version)
    return uri


async def wait_published(client, uri, version, timeout=10.0):
    import asyncio

    loop = asyncio.get_event_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if any(u == uri and v == version for u, v, _ in client.published):
            return [d for u, v, d in client.published if u == uri and v == version][-1]
        await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics published for {uri} version {version}")


def pos(text: str, needle: str, delta: int = 0, nth: int = 0) -> T.Position:
    """The LSP position of the nth occurrence of needle (plus delta characters)."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    i += delta
    line = text.count("\n", 0, i)
    col = i - (text.rfind("\n", 0, i) + 1)
    return T.Position(line, col)


def rng(text: str, needle: str, nth: int = 0) -> T.Range:
    start = pos(text, needle, 0, nth)
    return T.Range(start, T.Position(start.line, start.character + len(needle)))


def apply_edits(text: str, edits) -> str:
    """Apply LSP TextEdits (UTF-16 == code points for these ASCII tests) to text."""
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def off(p):
        return starts[p.line] + p.character

    for e in sorted(edits, key=lambda e: (off(e.range.start), off(e.range.end)), reverse=True):
        text = text[: off(e.range.start)] + e.new_text + text[off(e.range.end) :]
    return text


DATA = Path(__file__).resolve().parent.parent / "data"


def data(feature: str, name: str) -> str:
    """A test document of one LSP feature's end-to-end tests (tests/data/<feature>/)."""
    return (DATA / feature / name).read_text(encoding="utf-8")
