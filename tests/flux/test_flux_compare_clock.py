"""The comparison of a begin time read from two clocks (CI once failed when the two
reads straddled a minute and both were rounded to it)."""

from flux_compare import strip_submitter


def _js(value: float) -> dict:
    dep = {"scheme": "begin-time", "value": value}
    return {"attributes": {"system": {"dependencies": [dep]}}}


def test_begin_times_straddling_a_minute_agree():
    assert strip_submitter(_js(1_800_000_059.9)) == strip_submitter(_js(1_800_000_060.2))


def test_begin_times_far_apart_differ():
    assert strip_submitter(_js(1_800_000_000.0)) != strip_submitter(_js(1_800_003_600.0))
