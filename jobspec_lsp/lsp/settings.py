"""The language server's settings: typed, validated, with one precedence.

The client sends ``{"jobspec": {...}}`` (or the section itself) as
``initializationOptions``, then on ``workspace/didChangeConfiguration`` and in
answer to ``workspace/configuration``; the newest complete set wins. For the
settings a project can also set, the editor's value wins over the project's
``[tool.jobspec]`` (``target``; ``format.sortKeys`` over ``[tool.jobspec.format]
sort-keys``), and an unset one falls back to the project's, then the default.

A value of the wrong type or outside its choices is ignored (the default stays)
and reported, so a typo in an editor's settings is seen instead of silently
doing nothing. ``select``/``ignore`` are read by the core's one reader of code
lists (:func:`jobspec_lsp.diagnostics.read_codes`): a code that names no rule is
reported and left out, the others apply; a ``select`` of only unknown codes
selects nothing, so every rule is reported. Pure: no LSP types.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jobspec_lsp.settings import BY_EDITOR, Invalid
from jobspec_lsp.text.sources import JOBSPEC_GLOBS

# keys clients send for themselves (VS Code, Neovim configs): not the server's, not errors
CLIENT_KEYS = {"server", "trace", "scripts"}  # the editor extension's own settings


@dataclass
class Settings:
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    version_rules: str = "auto"
    target: str | None = None  # None: the project's [tool.jobspec] target, else rfc
    flux_version: str | None = None  # None: [tool.jobspec] flux-version, else the newest
    files: tuple[str, ...] = JOBSPEC_GLOBS
    sort_keys: bool | None = None  # None: [tool.jobspec.format] sort-keys, else true
    docs_url: str | None = None
    site: str | None = None  # None: the project's site, else none
    problems: list[str] = field(default_factory=list)  # what was ignored, and why

    @classmethod
    def from_dict(cls, raw) -> Settings:
        """The settings a client sent (``{"jobspec": {...}}`` or the section itself),
        each key read by its setting; what is wrong is said in ``problems``."""
        s = cls()
        if raw is None:
            return s
        if not isinstance(raw, dict):
            s.problems.append(f"settings must be an object, not {type(raw).__name__}")
            return s
        if isinstance(raw.get("jobspec"), dict):  # {"jobspec": {...}} or the section itself
            raw = raw["jobspec"]
        for key, value in raw.items():
            if key not in CLIENT_KEYS and key != "format":
                s._read(key, value)
        if "format" in raw:
            s._read_format(raw["format"])
        return s

    def _read(self, key: str, value) -> None:
        """One editor setting: read by its declaration (jobspec_lsp.settings), or said why
        not; an unset one (null or "") keeps the project's, else the default."""
        setting = BY_EDITOR.get(key)
        if setting is None:
            self.problems.append(f"jobspec.{key}: unknown setting (known: {', '.join(KNOWN)})")
            return
        if value is None or value == "":
            if setting.attr in ("target", "flux_version", "docs_url", "site"):
                return  # unset: the project's, else the default
            if setting.attr not in ("select", "ignore"):
                self.problems.append(
                    f"jobspec.{key}: expected {setting.want}, not {value!r}; ignored"
                )
                return
        try:
            got = setting.read(value)
        except Invalid as err:
            why = f" ({err})" if str(err) else ""
            self.problems.append(
                f"jobspec.{key}: expected {setting.want}, not {value!r}{why}; ignored"
            )
            return
        self.problems.extend(f"jobspec.{key}: {message} -- left out" for message, _ in got.left_out)
        if setting.attr == "select":
            self.select = list(got.value) or None
            if got.left_out and not got.value:  # never an empty selection that hides all
                self.problems.append(
                    "jobspec.select names no known rule, so every rule is reported (as "
                    "without a select)"
                )
        elif setting.attr == "ignore":
            self.ignore = list(got.value)
        else:
            setattr(self, setting.attr, got.value)

    def _read_format(self, fmt) -> None:
        """``format``: an object whose ``sortKeys`` is true or false."""
        if not isinstance(fmt, dict):
            self.problems.append(
                f'jobspec.format: expected an object such as {{"sortKeys": true}}, not {fmt!r}; '
                "ignored"
            )
        elif "sortKeys" in fmt and fmt["sortKeys"] is not None:
            if isinstance(fmt["sortKeys"], bool):
                self.sort_keys = fmt["sortKeys"]
            else:
                self.problems.append(
                    f"jobspec.format.sortKeys: expected true or false, not "
                    f"{fmt['sortKeys']!r}; ignored"
                )


KNOWN = (*BY_EDITOR, "format")  # the editor's keys (jobspec_lsp.settings)
