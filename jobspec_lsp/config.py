"""The project configuration: a ``jobspec.toml`` or the ``[tool.jobspec]`` table of a
``pyproject.toml``, the nearest one at or above a checked file.  One reader for the
CLI, the language server and the hooks; a problem in the file is reported with its
position and never raises.

Precedence, the same everywhere (docs/configuration.md): what the command line or
the editor's settings say > the project's file > the defaults.  In one folder a
``jobspec.toml`` wins over a ``pyproject.toml``; a ``pyproject.toml`` without a
``[tool.jobspec]`` table is passed over, so a monorepo's inner projects can have
their own.
"""

from __future__ import annotations

import fnmatch
import functools
import re
from pathlib import Path, PurePosixPath

from jobspec_lsp.diagnostics import CodeList, read_codes, unknown_code
from jobspec_lsp.fluxcli.values import toml_reader
from jobspec_lsp.record import Frozen
from jobspec_lsp.settings import BY_TOML, SETTINGS, Invalid
from jobspec_lsp.text import files
from jobspec_lsp.text.suggest import closest

# every key, its expected type in words, and what it does (docs/configuration.md): the
# settings of jobspec_lsp.settings, and the two tables only a file can hold
KEYS: dict[str, tuple[str, str]] = {
    **{s.toml: (s.want, s.doc) for s in SETTINGS if s.toml},
    "per-file-ignores": (
        "a table of glob = list of codes",
        "codes not reported for the files a glob matches (relative to the config's folder)",
    ),
    "format": ("a table", "formatter options (sort-keys, line-length)"),
}


class Problem(Frozen):
    __slots__ = ("path", "line", "column", "message")
    path: Path
    line: int  # 1-based
    column: int
    message: str

    def __init__(self, path: Path, line: int, column: int, message: str) -> None:
        put = object.__setattr__
        put(self, "path", path)
        put(self, "line", line)
        put(self, "column", column)
        put(self, "message", message)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.message}"


class Section(Frozen):
    __slots__ = ("table", "path", "warning")
    table: dict | None  # the configuration, None when no file has one
    path: Path | None  # the file it came from
    warning: str | None  # the file could not be read

    def __init__(self, table: dict | None, path: Path | None, warning: str | None = None):
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "warning", warning)


class Config(Frozen):
    """The project's settings for one file, checked."""

    __slots__ = (
        "path", "select", "ignore", "per_file_ignores", "target", "flux_version",
        "version_rules", "exit_non_zero_on_warning", "queues", "site", "docs_url", "problems",
    )  # fmt: skip
    path: Path | None  # the configuration file, None for none
    select: tuple[str, ...] | None
    ignore: tuple[str, ...]
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...]
    target: str | None
    flux_version: str | None
    version_rules: str | None
    exit_non_zero_on_warning: bool
    queues: tuple[str, ...]
    site: str | None  # a site profile's directory (absolute, or as given)
    docs_url: str | None  # the base of the rule documentation links (None: DOCS_URL)
    problems: tuple[Problem, ...]

    def __init__(
        self,
        path: Path | None = None,
        select: tuple[str, ...] | None = None,
        ignore: tuple[str, ...] = (),
        per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = (),
        target: str | None = None,
        flux_version: str | None = None,
        version_rules: str | None = None,
        exit_non_zero_on_warning: bool = False,
        queues: tuple[str, ...] = (),
        site: str | None = None,
        docs_url: str | None = None,
        problems: tuple[Problem, ...] = (),
    ) -> None:
        put = object.__setattr__
        put(self, "path", path)
        put(self, "select", select)
        put(self, "ignore", ignore)
        put(self, "per_file_ignores", per_file_ignores)
        put(self, "target", target)
        put(self, "flux_version", flux_version)
        put(self, "version_rules", version_rules)
        put(self, "exit_non_zero_on_warning", exit_non_zero_on_warning)
        put(self, "queues", queues)
        put(self, "site", site)
        put(self, "docs_url", docs_url)
        put(self, "problems", problems)

    def ignored_for(self, file: Path | str | None) -> tuple[str, ...]:
        """``ignore`` plus the per-file-ignores whose glob matches ``file``."""
        out = list(self.ignore)
        if file is None or not self.per_file_ignores or self.path is None:
            return tuple(out)
        try:
            rel = PurePosixPath(Path(file).resolve().relative_to(self.path.parent.resolve()))
        except (ValueError, OSError):
            rel = PurePosixPath(Path(file).name)
        for glob, codes in self.per_file_ignores:
            if _glob_match(glob, rel):
                out.extend(codes)
        return tuple(out)


def _glob_match(glob: str, rel: PurePosixPath) -> bool:
    text = rel.as_posix()
    if "/" not in glob:  # a bare name pattern matches in any folder
        return fnmatch.fnmatchcase(rel.name, glob)
    return fnmatch.fnmatchcase(text, glob) or (
        glob.startswith("**/") and fnmatch.fnmatchcase(text, glob[3:])
    )


def find_section(path) -> Section:
    """The configuration table for ``path``: the nearest ``jobspec.toml``, or
    ``pyproject.toml`` with a ``[tool.jobspec]`` table, at or above it."""
    try:
        p = Path(path).resolve()
    except (OSError, RuntimeError, TypeError):
        return Section(None, None)
    folders = ([p] if p.is_dir() else []) + list(p.parents)
    for folder in folders:
        got = _folder_section(folder)
        if got is not None:
            return got
    return Section(None, None)


@functools.lru_cache(maxsize=256)
def _read(cfg: Path, stamp: tuple[int, int]) -> tuple[dict | None, str | None, str]:
    """(data, error, text) of a TOML file; cached while its size and mtime stay."""
    try:
        text = files.read_regular(cfg, 16 << 20).decode("utf-8")
        deep = files.too_deep(text, comment="#")
        if deep is not None:
            return None, f"line {deep}: nested deeper than {files.MAX_DEPTH} levels", ""
        return toml_reader().loads(text), None, text
    except files.Unreadable as exc:
        return None, str(exc), ""
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return None, str(exc), ""


def _load(cfg: Path) -> tuple[dict | None, str | None, str] | None:
    try:
        st = cfg.stat()
    except OSError:
        return None
    if not cfg.is_file():  # a FIFO or a directory of that name is nobody's configuration
        return None
    return _read(cfg, (st.st_size, st.st_mtime_ns))


def _folder_section(folder: Path) -> Section | None:
    own = _load(folder / "jobspec.toml")
    if own is not None:
        data, err, _ = own
        if err is not None:
            return Section(None, folder / "jobspec.toml", f"{folder / 'jobspec.toml'}: {err}")
        return Section(data or {}, folder / "jobspec.toml")
    py = _load(folder / "pyproject.toml")
    if py is None:
        return None
    data, err, _ = py
    if err is not None:
        return Section(
            None, folder / "pyproject.toml", f"{folder / 'pyproject.toml'}: cannot read it ({err})"
        )
    tool = (data or {}).get("tool")
    section = tool.get("jobspec") if isinstance(tool, dict) else None
    if section is None:
        return None
    return Section(section if isinstance(section, dict) else {}, folder / "pyproject.toml")


def _where(cfg: Path, key: str, sub: str | None = None) -> tuple[int, int]:
    """Line and column (1-based) of ``key`` in the configuration file, as near as the
    text shows it (the TOML reader keeps no positions); (1, 1) when not found."""
    got = _load(cfg)
    text = got[2] if got else ""
    names = [re.escape(key)] + ([re.escape(sub)] if sub else [])
    pattern = r"^[ \t]*\"?(" + "|".join(names) + r")\"?[ \t]*="
    header = {"pyproject.toml": r"^\[tool\.jobspec(\.[\w-]+)?\]"}.get(cfg.name)
    start = 0
    if header:
        m = re.search(header, text, re.M)
        start = m.start() if m else 0
    for m in re.finditer(
        pattern if not sub else r"^[ \t]*\"?" + re.escape(sub) + r"\"?[ \t]*=", text[start:], re.M
    ):
        line = text.count("\n", 0, start + m.start()) + 1
        col = start + m.start(1 if not sub else 0) - (text.rfind("\n", 0, start + m.start()) + 1)
        return line, col + 1
    return 1, 1


def _codes(value) -> CodeList | None:
    """A configured list of codes read by the core's one reader; None for a value that
    is no list of strings (nor one comma-separated string)."""
    try:
        return read_codes(value)
    except TypeError:
        return None


def _where_word(cfg: Path, line: int, column: int, word: str) -> tuple[int, int]:
    """Line and column of ``word`` at or after (line, column): where an unknown code
    is written in a list; (line, column) when it is not found."""
    got = _load(cfg)
    lines = (got[2] if got else "").splitlines()
    for i in range(line - 1, len(lines)):
        text = lines[i]
        start = column - 1 if i == line - 1 else 0
        for m in re.finditer(re.escape(word), text[start:]):
            a, b = start + m.start(), start + m.end()
            if (a == 0 or not text[a - 1].isalnum()) and (b == len(text) or not text[b].isalnum()):
                return i + 1, a + 1
    return line, column


def load(path) -> Config:
    """The project's checked configuration for the file or folder ``path``."""
    sec = find_section(path if path is not None else Path.cwd())
    if sec.warning:
        assert sec.path is not None
        return Config(path=sec.path, problems=(Problem(sec.path, 1, 1, sec.warning),))
    if sec.table is None:
        return Config()
    return _build(sec.path, sec.table)


class _Said:
    """The problems of one configuration file, each placed where its text writes the
    key (or the word in a key's list) it is about."""

    __slots__ = ("cfg", "where", "problems")

    def __init__(self, cfg: Path) -> None:
        self.cfg = cfg
        self.where = "[tool.jobspec]" if cfg.name == "pyproject.toml" else cfg.name
        self.problems: list[Problem] = []

    def bad(self, key: str, message: str, sub: str | None = None) -> None:
        line, col = _where(self.cfg, key, sub)
        self.problems.append(Problem(self.cfg, line, col, message))

    def bad_code(self, key: str, word: str, message: str, sub: str | None = None) -> None:
        line, col = _where_word(self.cfg, *_where(self.cfg, key, sub), word)
        self.problems.append(Problem(self.cfg, line, col, message))


def _build(cfg: Path | None, table: dict) -> Config:
    """The configuration of ``table`` (read from ``cfg``): each key read by its
    setting, what is wrong said where the file writes it."""
    assert cfg is not None
    said = _Said(cfg)
    kw: dict = {}
    for key, value in table.items():
        if key not in KEYS:
            close = closest(key, KEYS)
            hint = f"; did you mean {close!r}?" if close else f" (known: {', '.join(KEYS)})"
            said.bad(key, f"{said.where} has no key {key!r}{hint}")
        elif key in BY_TOML:
            _read_setting(said, key, value, kw)
        elif key == "per-file-ignores":
            _read_per_file_ignores(said, key, value, kw)
        elif key == "format" and not isinstance(value, dict):
            said.bad(key, f"{said.where} format must be {KEYS[key][0]}")
    if "select" in kw:
        kw["select"] = kw["select"] or None
    if kw.get("site"):
        kw["site"] = str(cfg.parent / kw["site"])  # an absolute path stays as it is
    return Config(path=cfg, problems=tuple(said.problems), **kw)


def _read_setting(said: _Said, key: str, value: object, kw: dict) -> None:
    """A key the settings declare (jobspec_lsp.settings), read by its reader into ``kw``;
    the words it left out (unknown codes) each said where they are written."""
    setting = BY_TOML[key]
    try:
        got = setting.read(value)
    except Invalid as err:
        why = f" ({err})" if str(err) else ""
        said.bad(key, f"{said.where} {key} must be {setting.want}, not {value!r}{why}")
        return
    for message, word in got.left_out:
        if word is None:
            said.bad(key, f"{said.where} {key}: {message}")
        else:
            said.bad_code(key, word, f"{said.where} {key}: {message}")
    kw[setting.attr] = got.value


def _read_per_file_ignores(said: _Said, key: str, value: object, kw: dict) -> None:
    """``per-file-ignores``: a table of globs, each with its list of codes."""
    where = said.where
    if not isinstance(value, dict):
        said.bad(key, f"{where} per-file-ignores must be {KEYS[key][0]}")
        return
    pairs = []
    for glob, codes in value.items():
        listed = _codes(codes)
        if listed is None:
            said.bad(
                key,
                f"{where} per-file-ignores {glob!r} must list rule codes, not {codes!r}",
                sub=glob,
            )
        else:
            for word in listed.unknown:
                message = f"{where} per-file-ignores {glob!r}: {unknown_code(word)}"
                said.bad_code(key, word, message, sub=glob)
            pairs.append((glob, listed.codes))
    kw["per_file_ignores"] = tuple(pairs)


def target_for(path) -> tuple[str | None, list[str]]:
    """``target`` of the project's configuration for a file (None when unset) and the
    configuration's problems as warnings."""
    cfg = load(path)
    return cfg.target, [str(p) for p in cfg.problems]


def queues_for(path) -> list[str]:
    """``queues`` of the project's configuration for a file: the queue names its
    instance has (completion offers them after `--queue`/`-q`)."""
    return list(load(path).queues) if path else []
