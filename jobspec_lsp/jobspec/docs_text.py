"""The words hover and completion show: one source for every key's documentation.

``KEYS[kind][key]`` documents ``key`` inside a mapping of that kind (see
``context.kind_of``), as the vocabulary declares it.  ``VALUES`` documents the
values offered for a key. Texts are the project's own; each cites the RFC it
summarises.
"""

from __future__ import annotations

from jobspec_lsp.jobspec import vocabulary

# every key's documentation, by kind of mapping: from the vocabulary
KEYS: dict[str, dict[str, str]] = {
    kind: {k.name: k.doc for k in keys} for kind, keys in vocabulary.MAPPINGS.items()
}

# Values offered for a key of a kind: (value text, documentation).
VALUES: dict[tuple[str, str], list[tuple[str, str]]] = {
    ("vertex", "type"): [
        ("node", "A compute node."),
        ("slot", "A task slot: the resources one set of tasks runs on."),
        ("core", "A CPU core."),
        ("gpu", "A GPU."),
        ("socket", "A processor socket (canonical only)."),
        ("memory", "Memory, with a unit such as GB (canonical only)."),
        ("cluster", "A cluster (canonical only)."),
        ("switch", "A network switch (canonical only)."),
    ],
    ("vertex", "exclusive"): [
        ("true", "Allocate this resource to the job alone."),
        ("false", "Allow sharing."),
    ],
    ("count", "operator"): [
        ('"+"', "Add the operand: 2, 4, 6, ..."),
        ('"*"', "Multiply by the operand: 2, 4, 8, ..."),
        ('"^"', "Raise to the operand's power: 2, 4, 16, ..."),
    ],
    ("dependency", "scheme"): [
        (s, d)
        for s, d in (
            ("afterok", "Start after the job completed successfully."),
            ("afterany", "Start after the job ended, whatever its result."),
            ("afternotok", "Start after the job failed."),
            ("afterstart", "Start after the job started."),
            ("afterexcept", "Start after the job ended with an exception."),
            ("begin-time", "Start no earlier than the given time (epoch seconds)."),
            ("singleton", "Run one job of this name at a time."),
            ("string", "A named in/out dependency (RFC 14 use case 2.8)."),
            ("fluid", "A dependency on a job ID (RFC 14 use case 2.8)."),
        )
    ],
    ("dependency", "type"): [("in", ""), ("out", ""), ("inout", "")],
    ("dependency", "scope"): [("user", ""), ("global", "")],
    ("file", "encoding"): [
        ("utf-8", "Text."),
        ("base64", "Binary, base64 encoded."),
        ("blobvec", "A list of [offset, size, blobref]."),
    ],
}

V1_TYPES = ("node", "slot", "core", "gpu")  # the resource types RFC 25 knows

SNIPPET_V1 = """version: 1
resources:
  - type: node
    count: ${1:1}
    with:
      - type: slot
        count: ${2:1}
        label: ${3:task}
        with:
          - type: core
            count: ${4:1}
tasks:
  - command: [${5:app}]
    slot: ${3:task}
    count:
      per_slot: 1
attributes:
  system:
    duration: ${6:3600}
"""
SNIPPET_VERTEX = "type: ${1:core}\ncount: ${2:1}"
SNIPPET_TASK = "command: [${1:app}]\nslot: ${2:task}\ncount:\n  per_slot: ${3:1}"


def key_doc(kind: str | None, key: object) -> str | None:
    if kind is None or not isinstance(key, str):
        return None
    return KEYS.get(kind, {}).get(key)
