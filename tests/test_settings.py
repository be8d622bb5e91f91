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
        ({"target": "flux"}, "target", "jobspec.target: expected rfc, flux-core"),
        ({"versionRules": "V1"}, "version_rules", "jobspec.versionRules: expected auto or"),
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
