import pytest
from helpers import run_cli


@pytest.fixture
def cli():
    return run_cli


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Each phase's report on the test item (``item.rep_call``), so a fixture can
    tell whether the test failed (tests/editors/test_vscode.py keeps screenshots)."""
    outcome = yield
    rep = outcome.get_result()
    setattr(item, "rep_" + rep.when, rep)
