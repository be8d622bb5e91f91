"""End-to-end fixtures: the installed `jobspec-lsp` driven by pytest-lsp's real client."""

import pytest_lsp
from lsp_support import CONFIG, capabilities
from lsprotocol import types as T
from pytest_lsp import LanguageClient


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(T.InitializeParams(capabilities=capabilities()))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG)
async def pull_client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(T.InitializeParams(capabilities=capabilities(pull=True)))
    yield
    await lsp_client.shutdown_session()
