"""Containers of Slurm steps: Pyxis's options of srun (`--container-image`, `--container-name`,
`--container-mounts`, ...), read into a :class:`Box` and written as the Apptainer command each
task of the `flux run` step runs (Flux starts no container of its own).

Pyxis (NVIDIA's SPANK plugin over enroot) runs a step's tasks in a container made from an
image (a registry image as enroot names it, `nvcr.io#nvidia/pytorch:23.01-py3`, or a squashfs
file); a named container is kept for the job's later steps. Apptainer (Singularity's
successor, the runtime Flux sites give their users; `singularity` takes the same words)
starts one from the same image in each task: `apptainer exec [--bind ...] [--pwd ...]
docker://nvcr.io/nvidia/pytorch:23.01-py3 PROGRAM`. What differs is said at the line.

References: Pyxis's usage (its srun --help), https://github.com/NVIDIA/pyxis/wiki/Usage;
enroot's image URIs, https://github.com/NVIDIA/enroot/blob/main/doc/cmd/import.md;
Apptainer's exec and run, https://apptainer.org/docs/user/main/cli/apptainer_exec.html.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

from jobspec_lsp.fluxcli.argv import Word
from jobspec_lsp.migrate.model import Finding, is_dynamic

RUNTIME = "apptainer"


class Box:
    """A step's container, as its Pyxis options ask it (each value as srun read it)."""

    __slots__ = ("image", "name", "mounts", "workdir", "flags", "env", "entrypoint", "save")
    image: str
    name: str
    mounts: list[str]
    workdir: str
    flags: list[str]  # Apptainer's own options for the yes/no ones (--writable-tmpfs, ...)
    env: list[str]
    entrypoint: bool
    save: str

    def __init__(self) -> None:
        self.image = self.name = self.workdir = self.save = ""
        self.mounts, self.flags, self.env = [], [], []
        self.entrypoint = False


class HasBox:
    """What a step holding a container has (:class:`.launchers.Run` is one): a base with no
    slots of its own, so that the check path need not load `typing` for a Protocol."""

    __slots__ = ()
    container: Box | None
    program: str
    notes: list[str]


class NoForm(Exception):
    """A container option with no Apptainer form: the line is left as it is."""


def _box(run: HasBox) -> Box:
    if run.container is None:
        run.container = Box()  # type: ignore[misc]  # Run's slot: this base declares none
    return run.container


def _bare(v: str) -> str:
    """A value as the shell gives it: a word the shell expands is kept as written, its
    double quotes too (`"${CONT}"`); the value inside them."""
    return v[1:-1] if len(v) > 1 and v[0] == v[-1] == '"' else v


def _field(attr: str) -> Callable[[HasBox, str], None]:
    def f(run: HasBox, v: str) -> None:
        setattr(_box(run), attr, _bare(v))

    return f


def _listed(attr: str) -> Callable[[HasBox, str], None]:
    def f(run: HasBox, v: str) -> None:
        getattr(_box(run), attr).append(_bare(v))

    return f


def _flag(flag: str) -> Callable[[HasBox, str], None]:
    def f(run: HasBox, v: str) -> None:
        box = _box(run)
        if flag and flag not in box.flags:
            box.flags.append(flag)

    return f


def _entrypoint(on: bool) -> Callable[[HasBox, str], None]:
    def f(run: HasBox, v: str) -> None:
        _box(run).entrypoint = on

    return f


# srun's Pyxis options: values taken, what they make of the step's container, and what
# Apptainer's command gets (an option whose Apptainer form is its default writes nothing)
DECLARED: tuple[tuple[str, int, Callable[[HasBox, str], None], str], ...] = (
    ("--container-image", 1, _field("image"),
     "the image: a registry's (enroot's `REGISTRY#IMAGE:TAG`) as `docker://REGISTRY/IMAGE:TAG`, "
     "a squashfs or SIF file as it is"),
    ("--container-name", 1, _field("name"),
     "a later step of that name starts again from its image (what a step wrote into the "
     "container is not kept); a name no step of the script gives an image is left"),
    ("--container-mounts", 1, _listed("mounts"),
     "`--bind SRC:DST[:ro]` (Pyxis's other mount flags are Apptainer's to choose)"),
    ("--container-workdir", 1, _field("workdir"), "`--pwd DIR`"),
    ("--container-env", 1, _listed("env"), "`--env NAME=${NAME}` for each name"),
    ("--container-save", 1, _field("save"), "left: no Apptainer exec form"),
    ("--container-writable", 0, _flag("--writable-tmpfs"),
     "`--writable-tmpfs` (what the task writes lasts as long as the task)"),
    ("--container-readonly", 0, _flag(""), "nothing: Apptainer's default"),
    ("--container-remap-root", 0, _flag("--fakeroot"), "`--fakeroot`"),
    ("--no-container-remap-root", 0, _flag(""), "nothing: Apptainer's default"),
    ("--container-mount-home", 0, _flag(""), "nothing: Apptainer mounts the home directory"),
    ("--no-container-mount-home", 0, _flag("--no-home"), "`--no-home`"),
    ("--container-entrypoint", 0, _entrypoint(True),
     "`apptainer run`, which runs the image's entrypoint with the program's words"),
    ("--no-container-entrypoint", 0, _entrypoint(False), "`apptainer exec` (its default)"),
)  # fmt: skip
OPTIONS = {name: (count, do) for name, count, do, _ in DECLARED}


def markdown() -> str:
    """docs/migration.md's table of Pyxis's options."""
    rows = [f"| srun (Pyxis) | `{RUNTIME} exec` in each task |", "|---|---|"]
    rows += [f"| `{name}` | {how} |" for name, _, _, how in DECLARED]
    return "\n".join(rows) + "\n"


def _word(v: str) -> str:
    """A value as one shell word: one the shell expands in double quotes (it stays one
    word and is still expanded), any other quoted as needed."""
    if is_dynamic(v):
        return f'"{v}"' if '"' not in v else v
    return shlex.quote(v)


_FILE = re.compile(r"(?:[/.~]|.*\.(?:sqsh|squashfs|sif|simg|img)$)")


def image_uri(image: str, known: Callable[[str], str | None]) -> tuple[str, str]:
    """The image as Apptainer names it, and what is approximated (empty: nothing): a file
    as it is; a registry image (enroot's `[USER@][REGISTRY#]IMAGE[:TAG]`, with or without
    `docker://`) as `docker://REGISTRY/IMAGE[:TAG]`. A variable's image is read from the
    value the script gives it; one the shell gives at run time is taken for a registry
    image's."""
    m = re.fullmatch(r"\$\{?(\w+)\}?", image)
    value = known(m.group(1)) if m is not None else None
    if value is not None:
        if is_dynamic(value):
            value = ""
        elif _FILE.match(value) or (value.startswith("docker://") and "#" not in value):
            return _word(image), ""
        elif "#" not in value and "@" not in value:
            return _word("docker://" + image), ""
        if value:
            return _word(_registry(value)), f"{image} is {value}, written as Apptainer names it"
    if is_dynamic(image):
        why = (
            f"the image {image} is taken for a registry image (docker://); if it names a "
            "squashfs or SIF file, write it without docker://"
        )
        return _word("docker://" + image.removeprefix("docker://")), why
    if _FILE.match(image):
        return _word(image), ""
    return _word(_registry(image)), ""


def _registry(image: str) -> str:
    """enroot's `docker://[USER@][REGISTRY#]IMAGE[:TAG]` as Apptainer's docker:// URI (the
    registry's user is Apptainer's to ask: APPTAINER_DOCKER_USERNAME)."""
    bare = image.removeprefix("docker://")
    if "@" in bare.split("#", 1)[0] and "#" in bare:
        bare = bare.split("@", 1)[1]
    return "docker://" + bare.replace("#", "/", 1)


def _mounts(value: str) -> tuple[str, str]:
    """Pyxis's `SRC:DST[:FLAGS][,...]` (flags joined by `+`) as Apptainer's --bind value:
    its flags are `ro` or `rw`, the others dropped (said)."""
    if is_dynamic(value):
        return value, ""
    out, dropped = [], []
    for part in value.split(","):
        src, _, rest = part.partition(":")
        dst, _, flags = rest.partition(":")
        keep = [f for f in flags.split("+") if f in ("ro", "rw")] if flags else []
        dropped += [f for f in flags.split("+") if f and f not in ("ro", "rw")] if flags else []
        out.append(":".join(x for x in (src, dst or "", keep[-1] if keep else "") if x))
    why = f"mount options {', '.join(dropped)} are Apptainer's to choose" if dropped else ""
    return ",".join(out), why


def command(box: Box, named: dict[str, str], known: Callable[[str], str | None], gpus: bool):
    """The words each task runs before the program (`apptainer exec ... IMAGE `), and
    what is approximated; ``named``: the images of the containers named so far (a name
    given an image is added). Raises :class:`NoForm` for a container with no Apptainer
    form."""
    if box.save:
        raise NoForm(
            f"--container-save={box.save}: a container's state saved as an image has no "
            "Apptainer exec form"
        )
    image, said = box.image, []
    if box.name and image:
        named[box.name] = image
    elif box.name:
        if box.name not in named:
            raise NoForm(
                f"--container-name={box.name}: no earlier step gives this container its image"
            )
        image = named[box.name]
        said.append(
            f"the container {box.name} is started again from its image ({image}): what an "
            "earlier step wrote into it is not kept"
        )
    if not image:
        raise NoForm("Pyxis options without --container-image: no container to start")
    uri, why = image_uri(image, known)
    said += [why] if why else []
    words = [RUNTIME, "run" if box.entrypoint else "exec"]
    words += ["--nv"] if gpus else []
    words += box.flags
    for value in box.mounts:
        bind, why = _mounts(value)
        words += ["--bind", _word(bind)]
        said += [why] if why else []
    if box.workdir:
        words += ["--pwd", _word(box.workdir)]
    for names in box.env:
        words += [f'--env "{n}=${{{n}}}"' for n in names.split(",") if re.fullmatch(r"\w+", n)]
    return " ".join([*words, uri]) + " ", said


def contain(
    run: HasBox,
    named: dict[str, str],
    known: Callable[[str], str | None],
    opts: list[str],
    words: list[Word],
) -> Finding:
    """A step's container written before its program (``run.program``), and the warning
    at its first Pyxis option: what Apptainer does otherwise. ``opts``: the step's and the
    job's Flux options (GPUs asked: Apptainer's --nv gives the tasks the driver's
    libraries, as enroot's hook did)."""
    assert run.container is not None
    gpus = any(o.startswith(("-g", "--gpus")) for o in opts)
    program, said = command(run.container, named, known, gpus)
    run.program = program  # type: ignore[misc]  # Run's slot: this base declares none
    run.notes.append(f"each task runs the program in {RUNTIME} (Pyxis's container)")
    w = next((w for w in words if "container-" in w.value), words[0])
    message = (
        f"Pyxis's container: Flux starts none, so each task runs {program.strip()} "
        f"(the site's {RUNTIME.capitalize()}; singularity takes the same words), one "
        "container a task where Pyxis shares one among a node's tasks"
    )
    return Finding("approx", w.start, w.end, "; ".join([message, *said]))
