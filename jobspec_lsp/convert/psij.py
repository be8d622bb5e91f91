"""PSI/J's vocabulary, shared by both directions (:mod:`.frompsij`, :mod:`.topsij`).

The fields of a PSI/J ``JobSpec``, its ``ResourceSpecV1`` and its ``JobAttributes``
(psij-python's JSON serialization), the launchers, the notation of a duration, and the
bash wrapper that carries what PSI/J's launcher scripts do around the program (written
by PSI/J -> V1, recognised by V1 -> PSI/J)."""

from __future__ import annotations

import math
import re
import shlex

PSIJ_SPEC_KEYS = (
    "name",
    "executable",
    "arguments",
    "directory",
    "inherit_environment",
    "environment",
    "stdin_path",
    "stdout_path",
    "stderr_path",
    "resources",
    "attributes",
    "pre_launch",
    "post_launch",
    "launcher",
    "stage_in",
    "stage_out",
    "cleanup",
    "cleanup_flags",
)
PSIJ_RESOURCE_KEYS = (
    "node_count",
    "process_count",
    "processes_per_node",
    "cpu_cores_per_process",
    "gpu_cores_per_process",
    "exclusive_node_use",
    "memory",
    "__version",
)
PSIJ_ATTRIBUTE_KEYS = (
    "duration",
    "queue_name",
    "account",
    "project_name",
    "reservation_id",
    "custom_attributes",
)
# JobSpec fields jobspec V1 has no place for, and why
PSIJ_NOT_CARRIED = {
    "stage_in": "file staging has no jobspec V1 field",
    "stage_out": "file staging has no jobspec V1 field",
    "cleanup": "cleanup lists have no jobspec V1 field",
    "cleanup_flags": "cleanup flags have no jobspec V1 field",
}

# PSI/J launchers: how many processes each starts (None: as many as process_count)
PSIJ_LAUNCHERS = {"single": 1, "multiple": None, "mpirun": None, "srun": None, "aprun": None,
                  "jsrun": None}  # fmt: skip


# --------------------------------------------------------------------------- durations
# N may be any number Python writes for a float (psij-python writes the seconds of a
# timedelta with str(): "3600.0", "1e-05")
_PSIJ_SECONDS = re.compile(
    r"\s*((?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)\s*([smh])\s*\Z"
)
_PSIJ_CLOCK = re.compile(r"\s*([0-9]+):([0-9]+)(?::([0-9]+))?\s*\Z")


def psij_duration(raw) -> float | int | None:
    """Seconds from a PSI/J duration: "N s" (psij-python writes "3600.0 s", "2e-05 s"), "N m",
    "N h", "hh:mm:ss", "hh:mm", or a bare integer string (minutes, as
    psij-python reads it).  None when it is none of these."""
    if not isinstance(raw, str):
        return None
    m = _PSIJ_SECONDS.match(raw)
    if m:
        seconds = float(m.group(1)) * {"s": 1, "m": 60, "h": 3600}[m.group(2)]
    elif clock := _PSIJ_CLOCK.match(raw):
        h, mi, s = clock.groups()
        seconds = int(h) * 3600 + int(mi) * 60 + int(s or 0)
    elif raw.strip().isdigit():
        seconds = int(raw) * 60
    else:
        return None
    if not math.isfinite(seconds):
        return None
    return int(seconds) if float(seconds).is_integer() else seconds


# --------------------------------------------------------------------------- the launcher wrapper
def psij_wrapper(pre: str | None, post: str | None, single: bool = False) -> str:
    """The bash text each task runs to carry what PSI/J's launcher scripts do around the
    program (psij-python's launchers/scripts: bash, ``set -e`` but around the program):
    the pre-launch script sourced first (so what it exports reaches the program; a
    failing command in it fails the task), the program, then the post-launch script;
    the task exits with the program's status unless the post-launch script fails.
    ``single``: only task rank 0 runs anything (the single launcher's one process; the
    other tasks, there because Flux's job shell needs one on every node, end at once)."""
    parts = []
    if single:
        parts.append('[ "$FLUX_TASK_RANK" = 0 ] || exit 0')
    if pre:
        parts += ["set -e", f"source {shlex.quote(pre)}", "set +e"]
    parts.append('"$@"')
    if post:
        parts += ["rc=$?", "set -e", f"source {shlex.quote(post)}", "exit $rc"]
    return "; ".join(parts)


def psij_unwrap(command: list) -> tuple[str | None, str | None, bool, list] | None:
    """(pre_launch, post_launch, single, the program's command) when ``command`` is the
    wrapper :func:`psij_wrapper` writes, else None."""
    if len(command) < 5 or command[:2] != ["/bin/bash", "-c"] or command[3] != "psij-launch":
        return None
    m = re.fullmatch(
        r'(\[ "\$FLUX_TASK_RANK" = 0 \] \|\| exit 0; )?'
        r"(?:set -e; source (.+?); set \+e; )?"
        r'"\$@"'
        r"(?:; rc=\$\?; set -e; source (.+); exit \$rc)?",
        command[2],
    )
    if m is None:
        return None
    try:
        pre = shlex.split(m.group(2))[0] if m.group(2) else None
        post = shlex.split(m.group(3))[0] if m.group(3) else None
    except (ValueError, IndexError):
        return None
    single = m.group(1) is not None
    if psij_wrapper(pre, post, single) != command[2]:
        return None
    return pre, post, single, command[4:]
