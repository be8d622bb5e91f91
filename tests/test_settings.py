"""The server's settings: every value checked, and what is wrong said (not ignored)."""

import pytest

from jobspec_lsp.lsp.settings import Settings


def test_defaults_and_a_full_set():
    assert Settings.from_dict(None).problems == []
    s = Settings.from_dict(
        {
            "jobspec": {
                "select": ["js2"],
                "ignore": ["JS8"],
                "target": "fluxion",
                "versionRules": "v1",
                "files": ["*.job.yaml"],
                "format": {"sortKeys": False},
                "docsUrl": "https://example.org/rules",
                "server": {"path": "/x"},  # the client's own: not an error
                "trace": {"server": "off"},
            }
        }
    )
    assert s.problems == []
    assert (s.select, s.ignore, s.target, s.version_rules) == (["JS2"], ["JS8"], "fluxion", "v1")
    assert (s.files, s.sort_keys, s.docs_url) == (
        ("*.job.yaml",),
        False,
        "https://example.org/rules",
    )


def test_an_empty_target_means_the_projects():
    assert Settings.from_dict({"target": ""}).target is None


@pytest.mark.parametrize(
    "raw,field,words",
    [
        ({"target": "flux"}, "target", "jobspec.target: expected one of rfc, flux-core"),
        (
            {"versionRules": "V1"},
            "version_rules",
            "jobspec.versionRules: expected auto, canonical or v1",
        ),
        ({"select": 2}, "select", "jobspec.select: expected a list"),
        ({"ignore": [8]}, "ignore", "jobspec.ignore: expected a list"),
        ({"files": []}, "files", "jobspec.files: expected a non-empty list"),
        ({"format": {"sortKeys": "yes"}}, "sort_keys", "jobspec.format.sortKeys: expected true"),
        ({"format": True}, "sort_keys", "jobspec.format: expected an object"),
        ({"docsUrl": 3}, "docs_url", "jobspec.docsUrl: expected a URL"),
        ({"targte": "rfc"}, None, "jobspec.targte: unknown setting"),
    ],
)
def test_a_wrong_value_keeps_the_default_and_says_why(raw, field, words):
    s = Settings.from_dict(raw)
    (problem,) = s.problems
    assert problem.startswith(words), problem
    if field is not None:
        assert getattr(s, field) == getattr(Settings(), field)


def test_each_setting_is_declared_once_and_documented_where_it_is_given():
    """The project configuration's keys, the editor's and the CLI's flags come from one
    table (jobspec_lsp.settings); the docs list each under the name it is given with."""
    from helpers import REPO

    from jobspec_lsp import config
    from jobspec_lsp.cli.main import build_parser
    from jobspec_lsp.lsp import settings as editor
    from jobspec_lsp.settings import SETTINGS

    configuration = (REPO / "docs" / "configuration.md").read_text()
    server = (REPO / "docs" / "server.md").read_text()
    check = next(
        a for a in build_parser()._actions if getattr(a, "choices", None) and "check" in a.choices
    ).choices["check"]
    flags = {o for a in check._actions for o in a.option_strings}
    for s in SETTINGS:
        if s.toml:
            assert s.toml in config.KEYS and f"| `{s.toml}` |" in configuration, s.toml
        if s.editor:
            assert s.editor in editor.KNOWN and f"`jobspec.{s.editor}`" in server, s.editor
        if s.flag:
            assert s.flag in flags, s.flag


@pytest.mark.parametrize(
    "raw, words",
    [
        ({"versionRules": ""}, "jobspec.versionRules: expected auto, canonical or v1, not ''"),
        ({"files": None}, "jobspec.files: expected a non-empty list"),
        ({"fluxVersion": 0.88}, 'in quotes: "0.88"'),
    ],
)
def test_empty_or_unquoted_values_are_said(raw, words):
    (problem,) = Settings.from_dict(raw).problems
    assert words in problem, problem
