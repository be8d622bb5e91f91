"""One builder for the example jobspecs the rules document (docs/rules.md) and test
against: a small valid jobspec with the part a rule is about swapped in."""

from __future__ import annotations

ONE_CORE_SLOT = "  - type: slot\n    count: 1\n    label: task\n    with:\n      - type: core\n        count: 1\n"
ONE_TASK = "  - command: [app]\n    slot: task\n    count: {per_slot: 1}\n"


def nested(text: str, indent: int) -> str:
    """``text``'s lines, each indented by ``indent`` spaces."""
    return "".join(" " * indent + line + "\n" for line in text.splitlines())


def jobspec(
    *,
    version: int = 999,
    resources: str = ONE_CORE_SLOT,
    tasks: str = ONE_TASK,
    system: str = "    duration: 0\n",
    attributes: str | None = None,
) -> str:
    """A jobspec: the given resources and tasks lists (YAML lines, indented as under
    their key), and ``system`` attributes (or the whole ``attributes`` section)."""
    attrs = attributes if attributes is not None else "attributes:\n  system:\n" + system
    return f"version: {version}\nresources:\n{resources}tasks:\n{tasks}{attrs}"


def with_system(key: str, body: str) -> str:
    """A jobspec whose system attributes hold ``key`` with ``body`` (nested under it)."""
    return jobspec(system=f"    duration: 0\n    {key}:\n" + nested(body, 6))
