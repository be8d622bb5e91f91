"""Which reader a jobspec gets: JSON or YAML. One rule for the CLI, conversions and
the language server.

- A name ending in ``.json`` (or an editor's ``json``/``jsonc`` language) is JSON.
- A name ending in ``.yaml``/``.yml`` (or the ``yaml`` language) is YAML.
- Anything else (``job.jobspec``, no suffix, standard input) is JSON when its first
  character other than white space is ``{`` or ``[``, as Flux's own tools take it
  (``flux job submit`` reads JSON): a JSON-looking file is held to JSON's rules, so a
  trailing comma or a comment is reported instead of being read as YAML. Otherwise
  YAML.
"""

from __future__ import annotations

JSON_SUFFIXES = (".json",)
YAML_SUFFIXES = (".yaml", ".yml")


def looks_like_json(text: str | bytes) -> bool:
    head = (
        text.lstrip("\ufeff \t\r\n")
        if isinstance(text, str)
        else text.lstrip(b" \t\r\n").removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
    )
    return head[:1] in ("{", "[", b"{", b"[")


def language_of(name: str | None, text: str | bytes = "", language_id: str | None = None) -> str:
    """``"json"`` or ``"yaml"`` for a document named ``name`` (None: standard input)
    with content ``text``; ``language_id`` is an editor's language, when there is one."""
    lid = (language_id or "").lower()
    if lid.startswith("json"):
        return "json"
    if lid.startswith("yaml"):
        return "yaml"
    low = (name or "").lower()
    if low.endswith(JSON_SUFFIXES):
        return "json"
    if low.endswith(YAML_SUFFIXES):
        return "yaml"
    return "json" if looks_like_json(text) else "yaml"
