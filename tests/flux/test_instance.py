"""The instance itself answers as the tier expects."""


def test_ingest_as_shipped_requires_version_1(flux):
    canonical = {
        "version": 999,
        "resources": [
            {"type": "slot", "count": 1, "label": "x", "with": [{"type": "core", "count": 1}]}
        ],
        "tasks": [{"command": ["true"], "slot": "x", "count": {"per_slot": 1}}],
        "attributes": {"system": {"duration": 0}},
    }
    v1 = dict(canonical, version=1)
    (c1, v1_shipped) = flux.submit([canonical, v1], "1")
    assert not c1["ok"] and "version must be 1" in c1["error"] and v1_shipped["ok"]
    (c2, v1_any) = flux.submit([canonical, v1], "any")
    assert c2["ok"] and v1_any["ok"]
