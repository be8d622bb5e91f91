"""One text for one value, in this process and under `flux python` alike."""


def canon(x) -> str:
    """repr with mapping keys sorted: the same text for the same values."""
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k!r}: {canon(v)}" for k, v in sorted(x.items())) + "}"
    if isinstance(x, list):
        return "[" + ", ".join(canon(v) for v in x) + "]"
    return repr(x)
