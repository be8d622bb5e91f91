"""The project configuration: the ``[tool.jobspec]`` table of the nearest
``pyproject.toml`` at or above a checked file. One reader for the CLI, the
language server and the hooks; every problem is a warning, never an exception."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import targets


@dataclass(frozen=True)
class Section:
    table: dict | None  # [tool.jobspec], None when no pyproject.toml has one
    path: Path | None  # the pyproject.toml it came from
    warning: str | None = None  # the file could not be read


def find_section(path) -> Section:
    """``[tool.jobspec]`` of the nearest ``pyproject.toml`` that has one."""
    try:
        import tomllib
    except ImportError:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        p = Path(path).resolve()
    except (OSError, RuntimeError, TypeError):
        return Section(None, None)
    folders = ([p] if p.is_dir() else []) + list(p.parents)
    for folder in folders:
        cfg = folder / "pyproject.toml"
        try:
            if not cfg.is_file():
                continue
            data = tomllib.loads(cfg.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            return Section(None, cfg, f"{cfg}: cannot read it ({exc})")
        tool = data.get("tool")
        section = tool.get("jobspec") if isinstance(tool, dict) else None
        if section is None:
            continue
        return Section(section if isinstance(section, dict) else {}, cfg)
    return Section(None, None)


def target_for(path) -> tuple[str | None, list[str]]:
    """``target`` of ``[tool.jobspec]`` for a file (None when unset) and warnings."""
    sec = find_section(path)
    if sec.warning:
        return None, [sec.warning]
    if not sec.table or "target" not in sec.table:
        return None, []
    value = sec.table["target"]
    if value in targets.TARGETS:
        return value, []
    return None, [
        f"{sec.path}: [tool.jobspec] target must be one of "
        f"{', '.join(targets.TARGETS)}, not {value!r}; using {targets.DEFAULT}"
    ]


def queues_for(path) -> list[str]:
    """``queues`` of ``[tool.jobspec]`` for a file: the queue names its instance has
    (completion offers them after `--queue`/`-q`)."""
    sec = find_section(path) if path else Section(None, None)
    value = (sec.table or {}).get("queues")
    return [q for q in value if isinstance(q, str)] if isinstance(value, list) else []
