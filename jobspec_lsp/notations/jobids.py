"""Flux job ids as flux-core's job id parser reads them: decimal, F58, hex, dotted hex
and the mnemonic words form, each at most 64 bits (``--dependency=afterok:ID``)."""

from __future__ import annotations

import re

_F58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_F58_VALUE = {c: i for i, c in enumerate(_F58)}
_DOTHEX = re.compile(r"[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4}){3}\Z")
_JOBID_WORDS = re.compile(r"[a-z]+-[a-z]+-[a-z]+--[a-z]+-[a-z]+-[a-z]+\Z")
_JOBID_MAX = 2**64 - 1


def jobid_problem(text: str) -> str | None:
    """Why ``text`` is not a Flux job id (None when it is one): decimal, F58 (``ƒ`` or
    ``f`` then base-58 digits), ``0x`` hex, dotted hex, ``job.`` + dotted hex, or the
    mnemonic words form, each at most 64 bits, as flux-core's job id parser reads them."""
    if not text:
        return "the job id is empty"
    if "$" in text or "`" in text:
        return (
            f"{text!r} is not a job id: a directive is not read by the shell, so a "
            "variable there is never expanded"
        )
    body = text.lstrip(" \t\n")
    if body.startswith("+"):
        body = body[1:]
    if body.isascii() and body.isdigit():
        return (
            None
            if len(body) <= 20 and int(body) <= _JOBID_MAX
            else f"{text!r} is too large for a job id"
        )
    if text.startswith("0x") and re.fullmatch(r"[0-9a-fA-F]+", text[2:]):
        digits = text[2:].lstrip("0")
        return None if len(digits) <= 16 else f"{text!r} is too large for a job id"
    if _DOTHEX.match(text) or (text.startswith("job.") and _DOTHEX.match(text[4:])):
        return None
    if _JOBID_WORDS.match(text):
        return None
    if text[:1] in ("ƒ", "f") and len(text) > 1:
        rest = text[1:]
        if rest.isascii():
            value = 0
            for ch in rest:
                if ch not in _F58_VALUE:
                    return f"{text!r} is not a job id ({ch!r} is not an F58 digit)"
                value = value * 58 + _F58_VALUE[ch]
                if value > _JOBID_MAX:
                    return f"{text!r} is too large for a job id"
            return None if value else f"{text!r} is not a job id (F58 ids start at 1)"
        return None  # the emoji form of F58
    return f"{text!r} is not a job id (decimal, ƒ/f F58, 0x hex, dotted hex or the words form)"
