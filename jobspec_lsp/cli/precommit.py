"""Entry points of the pre-commit hooks that `jobspec` alone cannot be
(.pre-commit-hooks.yaml):

    python -m jobspec_lsp.cli.precommit check-scripts [jobspec check options] FILE...

``check-scripts`` is `jobspec check` on those of the files that are batch scripts:
they hold an RFC 36 ``#flux:`` sentinel, as a directory search takes them
(``kinds.flux_directives``). The others — a shell script without
directives, a Slurm-only script — are not this tool's to check and are left alone;
with none left it exits 0 without a word. Named explicitly, `jobspec check` reads
any file as a jobspec, which a plain shell script is not.
"""

from __future__ import annotations

import sys
from pathlib import Path

from jobspec_lsp.cli.main import build_parser
from jobspec_lsp.cli.main import main as jobspec
from jobspec_lsp.kinds import flux_directives
from jobspec_lsp.text import files

USAGE = "usage: python -m jobspec_lsp.cli.precommit check-scripts [OPTIONS] FILE..."
HEAD = 1 << 20  # the sentinel is searched in the first MiB, as a directory search does


def is_batch_script(path: str) -> bool:
    """Whether `jobspec check` should see ``path`` as a batch script; a file that
    cannot be read is kept, so that `jobspec check` reports why."""
    if path == "-":
        return True
    try:
        head = files.read_regular(path, HEAD, partial=True).decode("utf-8", "replace")
    except files.Unreadable:
        return True
    return flux_directives(Path(path).name, head)


def check_scripts(argv: list[str]) -> int:
    try:
        args = build_parser().parse_args(["check", *argv])
    except SystemExit as exc:  # argparse already printed the usage message
        return 2 if exc.code else 0
    paths = list(args.paths)
    keep = [p for p in paths if is_batch_script(p)]
    if not keep:
        return 0
    # pre-commit passes the hook's args first, the files last
    if argv[len(argv) - len(paths) :] == paths:
        options = argv[: len(argv) - len(paths)]
    else:
        options = [a for a in argv if a not in paths]
    return jobspec(["check", *options, *keep])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["check-scripts"]:
        return check_scripts(argv[1:])
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
