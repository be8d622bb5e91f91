"""JS3xx — slot labels and tasks."""

from __future__ import annotations

import json

from jobspec_lsp.diagnostics import Family, Severity
from jobspec_lsp.jobspec import examples, vocabulary
from jobspec_lsp.jobspec.tree import Mapping, Scalar, Sequence
from jobspec_lsp.rules.base import (
    Context,
    Memo,
    Suggester,
    anchor_for_missing,
    check_keys,
    describe,
    did_you_mean,
    is_int,
    is_str,
    shown,
    suggest,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

_SLOT_OF_TWO = "  - type: slot\n    count: 2\n    label: task\n    with:\n      - type: core\n        count: 1\n"
_VERBOSE_TASK = "  - command: [app, --verbose]\n    slot: task\n    count:\n      per_slot: 1\n"


def _js(resources: str | None = None, task: str | None = None) -> str:
    return examples.jobspec(resources=resources or _SLOT_OF_TWO, tasks=task or _VERBOSE_TASK)


_TWO_SLOTS = """  - type: node
    count: 1
    with:
      - type: slot
        count: 1
        label: {a}
        with:
          - type: core
            count: 1
      - type: slot
        count: 1
        label: {b}
        with:
          - type: gpu
            count: 1
"""
_TWO_TASKS = """  - command: [a]
    slot: {a}
    count: {{per_slot: 1}}
  - command: [b]
    slot: {b}
    count: {{per_slot: 1}}
"""

family = Family(rfc="RFC 14", good=_js())
SLOT_NO_LABEL = family.error(
    """JS301 slot-missing-label: A slot has no `label`.

    Tasks find their slot by its label, so RFC 14 makes the label mandatory on every slot.""",
    bad=_js(
        resources="  - type: slot\n    count: 2\n    with:\n      - type: core\n        count: 1\n"
    ),
    fix="add-label",
)
SLOT_NO_WITH = family.error(
    """JS302 slot-without-with: A slot contains no resources.

    A task slot groups resources; one with no `with` edge gives its tasks nothing to run on.""",
    bad=_js(resources="  - type: slot\n    count: 2\n    label: task\n"),
)
DUPLICATE_LABEL = family.error(
    """JS303 duplicate-label: Two resource vertices share a label.

    Labels name vertices across the whole jobspec and must be unique, or a task's slot is
    ambiguous.""",
    bad=_js(
        resources=_TWO_SLOTS.format(a="task", b="task"), task=_TWO_TASKS.format(a="task", b="task")
    ),
    good=_js(
        resources=_TWO_SLOTS.format(a="cpu", b="gpu"), task=_TWO_TASKS.format(a="cpu", b="gpu")
    ),
    fix="suggestion",
)
TASK_NOT_MAPPING = family.error(
    """JS304 task-not-mapping: A task is not a mapping.

    Each task is a mapping with command, slot and count.""",
    bad=_js(task="  - app\n"),
)
TASK_MISSING = family.error(
    """JS305 task-missing-key: A task lacks `command`, `slot` or `count`.

    RFC 14 requires all three: what to run, where, and how many copies.""",
    bad=_js(task="  - command: [app]\n    slot: task\n"),
)
TASK_UNKNOWN = family.error(
    """JS306 task-unknown-key: A task has a key RFC 14 does not define.

    A task holds command, slot, count, attributes and distribution; other keys are typos or
    belong under the task's attributes.""",
    bad=_js(task="  - command: [app]\n    slot: task\n    count: {per_slot: 1}\n    cwd: /tmp\n"),
    good=_js(
        task="  - command: [app]\n    slot: task\n    count: {per_slot: 1}\n"
        "    attributes: {cwd: /tmp}\n"
    ),
    fix="suggestion",
)
UNKNOWN_SLOT = family.error(
    """JS307 unknown-slot: A task's `slot` names no slot label.

    The task would have nowhere to run. Flux itself does not check this before the job is
    scheduled, so the mistake surfaces late.""",
    bad=_js(task="  - command: [app]\n    slot: tsak\n    count: {per_slot: 1}\n"),
    fix="suggestion",
)
TASK_COUNT_KEYS = family.error(
    """JS308 task-count-form: A task count does not hold exactly one of per_slot, per_resource,
    total.

    RFC 14: the task count says either how many per slot, how many per resource, or how many
    in total — exactly one of them.""",
    bad=_js(task="  - command: [app]\n    slot: task\n    count: {per_slot: 1, total: 4}\n"),
    good=_js(task="  - command: [app]\n    slot: task\n    count: {total: 4}\n"),
)
TASK_COUNT_UNKNOWN = family.warning(
    """JS309 task-count-unknown-key: A task count has a key other than per_slot, per_resource,
    total.

    Other keys are reserved for extensions; most likely this is a typo.""",
    bad=_js(task="  - command: [app]\n    slot: task\n    count: {per_slot: 1, per_slots: 1}\n"),
    fix="suggestion",
)
TASK_COUNT_VALUE = family.error(
    """JS310 task-count-value: per_slot or total is not a positive integer.

    Task counts are whole numbers of tasks, at least 1.""",
    bad=_js(task="  - command: [app]\n    slot: task\n    count: {per_slot: 0}\n"),
)
PER_RESOURCE_FORM = family.error(
    """JS311 per-resource-form: per_resource is not a mapping of `type` and a positive `count`.

    per_resource says how many tasks to run on each resource of a type inside the slot.""",
    bad=_js(task="  - command: [app]\n    slot: task\n    count: {per_resource: core}\n"),
    good=_js(
        task="  - command: [app]\n    slot: task\n    count: {per_resource: {type: core, count: 1}}\n"
    ),
)
PER_RESOURCE_TYPE = family.error(
    """JS312 per-resource-type: per_resource names a type that is not inside the task's slot.

    Tasks are placed per resource of that type within the slot; if the slot holds none, no
    task can be placed.""",
    bad=_js(
        task="  - command: [app]\n    slot: task\n    count: {per_resource: {type: node, count: 1}}\n"
    ),
    good=_js(
        task="  - command: [app]\n    slot: task\n    count: {per_resource: {type: core, count: 1}}\n"
    ),
)
BAD_COMMAND = family.error(
    """JS313 bad-command: `command` is not a non-empty list of strings.

    The command is the argument vector: program name first, then its arguments, each a string.
    A single string is not split into words.""",
    bad=_js(task="  - command: app --verbose\n    slot: task\n    count: {per_slot: 1}\n"),
    fix="replacement",
    safety="repair",
)
TASK_ATTRIBUTES = family.error(
    """JS314 task-attributes-type: A task's `attributes` is not a mapping.

    Task attributes are a free-form mapping.""",
    bad=_js(
        task="  - command: [app]\n    slot: task\n    count: {per_slot: 1}\n    attributes: []\n"
    ),
)
DISTRIBUTION = family.error(
    """JS315 distribution-type: A task's `distribution` is not a string.

    distribution is a hint string for the launcher's placement algorithm.""",
    bad=_js(
        task="  - command: [app]\n    slot: task\n    count: {per_slot: 1}\n    distribution: 2\n"
    ),
    good=_js(
        task="  - command: [app]\n    slot: task\n    count: {per_slot: 1}\n    distribution: block\n"
    ),
)
SLOT_TYPE = family.error(
    """JS316 task-slot-type: A task's `slot` is not a string.

    slot names the label of a slot vertex.""",
    bad=_js(task="  - command: [app]\n    slot: [task]\n    count: {per_slot: 1}\n"),
)

TASK_KEYS = vocabulary.keys("task")
COUNT_KEYS = vocabulary.keys("task.count")


def check(ctx: Context) -> None:
    labels: dict[str, Any] = {}  # label -> the first Vertex with it
    slots: dict[str, object] = {}
    for v in ctx.vertices:
        label_pair = v.node.pair("label")
        if v.type == "slot":
            if label_pair is None:
                ctx.report(
                    SLOT_NO_LABEL,
                    v.node.get("type"),
                    "a slot needs a label that tasks refer to",
                    data={"suggestion": _free(ctx)},
                )
            if "with" not in v.node:
                ctx.report(
                    SLOT_NO_WITH,
                    v.node.get("type"),
                    "a slot must contain resources: add a with list (for example one core)",
                )
        if v.label is not None and label_pair is not None:
            first = labels.get(v.label)
            if first is not None:
                first_value = first.node.pair("label")[1]
                label_at = first_value.start
                line = ctx.doc.lines.position(label_at).line + 1
                ctx.report(
                    DUPLICATE_LABEL,
                    label_pair[1],
                    f"label {v.label!r} is already used on line {line}; labels must be unique",
                    data={
                        "suggestion": _unique(v.label, labels),
                        "related": [
                            [label_at, first_value.end, f"label {v.label!r} is first used here"]
                        ],
                    },
                )
            else:
                labels[v.label] = v
                if v.type == "slot":
                    slots[v.label] = v
    near = Suggester(slots)
    # a task's findings depend on it, on the labels it can refer to (in document order:
    # a suggestion's ties go to the first), on whether there are resources at all (and,
    # with a per_resource count, on what its slot holds: those are not remembered)
    memo = Memo(ctx, "tasks")
    env = memo.same((bool(ctx.vertices), tuple((name, v.type) for name, v in labels.items())))
    for task in ctx.tasks:
        got = memo.get(task, env)
        if got is not None:
            ctx.diagnostics.extend(got[0])
            continue
        d = len(ctx.diagnostics)
        _check_task(ctx, task, labels, slots, near)
        if not _per_resource(task):
            memo.put(task, ctx.diagnostics[d:], env)
    memo.done()


def _per_resource(task: Any) -> bool:
    count = task.get("count") if isinstance(task, Mapping) else None
    return isinstance(count, Mapping) and "per_resource" in count


def _free(ctx: Context) -> str:
    names = {v.label for v in ctx.vertices if v.label}
    return _unique("task", names) if "task" in names else "task"


def _unique(label: str, taken: Any) -> str:
    n = 2
    while f"{label}{n}" in taken:
        n += 1
    return f"{label}{n}"


def _check_task(ctx: Context, task: Any, labels: Any, slots: Any, near: Suggester) -> None:
    """One task: its keys, its command, the slot it runs in, its count, the rest."""
    if not isinstance(task, Mapping):
        return ctx.report(
            TASK_NOT_MAPPING,
            task,
            f"a task must be a mapping with command, slot and count, not {describe(task)}",
        )
    _check_task_keys(ctx, task)
    _check_command(ctx, task)
    slot_vertex = _task_slot(ctx, task, labels, slots, near)
    pair = task.pair("count")
    if pair is not None:
        _check_task_count(ctx, pair[0], pair[1], slot_vertex)
    _check_task_extras(ctx, task)


def _check_task_keys(ctx: Context, task: Mapping) -> None:
    """Unknown keys (a count's key written at the task's level says where it belongs),
    and the required ones missing."""
    missing = check_keys(
        ctx,
        task,
        TASK_KEYS,
        TASK_UNKNOWN,
        "a task",
        required=vocabulary.required("task"),
        elsewhere={k: "count (count: {" + k + ": ...})" for k in COUNT_KEYS},
    )
    if missing:
        ctx.report(
            TASK_MISSING,
            anchor_for_missing(task),
            "task is missing " + ", ".join(missing),
            data={"missing": missing},
        )


def _check_command(ctx: Context, task: Mapping) -> None:
    """``command``: a non-empty list of strings (one string: split into the list)."""
    pair = task.pair("command")
    if pair is None:
        return
    key, cmd = pair
    if isinstance(cmd, Sequence) and cmd.items:
        for item in cmd.items:
            if not is_str(item):
                ctx.report(
                    BAD_COMMAND,
                    item,
                    f"every command element must be a string, not {describe(item)}; quote it",
                    data={"replacement": _quoted(ctx, item)},
                )
    elif is_str(cmd) and cmd.value.strip():
        ctx.report(
            BAD_COMMAND,
            cmd,
            "command must be a list of strings (program, then arguments), not one string",
            data={"replacement": cmd.value.split()},
        )
    else:
        what = "an empty list" if isinstance(cmd, Sequence) else describe(cmd)
        ctx.report(BAD_COMMAND, pair, f"command must be a non-empty list of strings, not {what}")


def _task_slot(ctx: Context, task: Mapping, labels: Any, slots: Any, near: Suggester) -> Any:
    """The slot vertex the task's ``slot`` names (None when it names none, said here)."""
    pair = task.pair("slot")
    if pair is None:
        return None
    key, slot = pair
    if not is_str(slot):
        ctx.report(
            SLOT_TYPE,
            pair,
            f"slot must be the label of a slot (a string), not {describe(slot)}",
        )
    elif slot.value in slots:
        return slots[slot.value]
    elif slot.value in labels:
        ctx.report(
            UNKNOWN_SLOT,
            slot,
            f"{slot.value!r} labels a {labels[slot.value].type} "
            "vertex, not a slot; tasks run in slots",
        )
    elif ctx.vertices:
        _no_such_slot(ctx, slot, slots, near)
    return None


def _no_such_slot(ctx: Context, slot: Scalar, slots: Any, near: Suggester) -> None:
    """JS307 for a label no vertex has: the nearest slot's label, and the slots there are."""
    guess = near.best(slot.value, cutoff=0.0) if slots else None
    if slots:
        names = sorted(slots)
        shown = ", ".join(names[:10]) + (f", and {len(names) - 10} more" if len(names) > 10 else "")
        msg = f"no slot is labelled {slot.value!r}{did_you_mean(guess)} (slots: {shown})"
    else:
        msg = f"no slot is labelled {slot.value!r}: the resources define no slot"
    ctx.report(
        UNKNOWN_SLOT,
        slot,
        msg,
        data={"suggestion": guess} if guess else None,
    )


def _check_task_extras(ctx: Context, task: Mapping) -> None:
    """``attributes`` (a mapping) and ``distribution`` (a string)."""
    pair = task.pair("attributes")
    if pair is not None and not isinstance(pair[1], Mapping):
        ctx.report(
            TASK_ATTRIBUTES, pair, f"task attributes must be a mapping, not {describe(pair[1])}"
        )
    pair = task.pair("distribution")
    if pair is not None and not is_str(pair[1]):
        ctx.report(DISTRIBUTION, pair, f"distribution must be a string, not {describe(pair[1])}")


def _quoted(ctx: Context, node: Any) -> Any:

    if isinstance(node, Scalar) and node.end > node.start:
        return json.dumps(ctx.source(node))
    return None


def _check_task_count(ctx: Context, key: Any, count: Any, slot_vertex: Any) -> None:
    """A task's ``count``: a mapping with exactly one of per_slot, per_resource, total,
    each of its form."""
    if not isinstance(count, Mapping):
        return ctx.report(
            TASK_COUNT_KEYS,
            (key, count),
            "task count must be a mapping with one of "
            f"per_slot, per_resource or total, not {describe(count)}",
        )
    _check_count_keys(ctx, key, count)
    for k in ("per_slot", "total"):
        pair = count.pair(k)
        if pair is not None and not (is_int(pair[1]) and pair[1].value >= 1):
            ctx.report(
                TASK_COUNT_VALUE, pair, f"{k} must be a positive integer, not {shown(ctx, pair[1])}"
            )
    pair = count.pair("per_resource")
    if pair is not None:
        _check_per_resource(ctx, pair, slot_vertex)


def _check_count_keys(ctx: Context, key: Any, count: Mapping) -> None:
    """Unknown keys of a count (a near spelling of its one key is that key's mistake),
    and not exactly one of per_slot, per_resource, total."""
    present = [k for k in COUNT_KEYS if k in count]
    typo = False
    for k, _ in count.pairs:
        if k.value not in COUNT_KEYS:
            guess = suggest(k.value, COUNT_KEYS)
            claims = guess is not None and not present and not typo  # the count's one key
            typo = typo or claims
            ctx.report(
                TASK_COUNT_UNKNOWN,
                k,
                f"unknown key {ctx.source(k)!r} in a task count{did_you_mean(guess)}"
                + (" (a task count needs one of per_slot, per_resource, total)" if claims else ""),
                data={"suggestion": guess} if guess else None,
                severity=Severity.ERROR if claims else None,
            )
    if len(present) != 1 and not typo:  # a misspelt only key: said above, as an error
        where = count.key_node(present[1]) if len(present) > 1 else anchor_for_missing(count, key)
        msg = "task count must have exactly one of per_slot, per_resource or total" + (
            f", not {' and '.join(present)}" if present else ""
        )
        ctx.report(TASK_COUNT_KEYS, where, msg)


def _check_per_resource(ctx: Context, pair: Any, slot_vertex: Any) -> None:
    """``per_resource``: a mapping of a type and a positive count, the type one the
    task's slot holds."""
    pk, pr = pair
    if not isinstance(pr, Mapping):
        return ctx.report(
            PER_RESOURCE_FORM,
            pair,
            f"per_resource must be a mapping with type and count, not {describe(pr)}",
        )
    for k in ("type", "count"):
        if k not in pr:
            ctx.report(
                PER_RESOURCE_FORM, anchor_for_missing(pr, pk), f"per_resource is missing {k}"
            )
    for k, _ in pr.pairs:
        if k.value not in ("type", "count"):
            ctx.report(
                PER_RESOURCE_FORM,
                k,
                f"unknown key {ctx.source(k)!r} in per_resource (allowed: type, count)",
            )
    cp = pr.pair("count")
    if cp is not None and not (is_int(cp[1]) and cp[1].value >= 1):
        ctx.report(
            PER_RESOURCE_FORM,
            cp,
            f"per_resource count must be a positive integer, not {shown(ctx, cp[1])}",
        )
    tp = pr.pair("type")
    if tp is not None:
        _check_per_resource_type(ctx, tp, slot_vertex)


def _check_per_resource_type(ctx: Context, tp: Any, slot_vertex: Any) -> None:
    """``per_resource.type``: a string naming a type the slot holds."""
    if not is_str(tp[1]):
        ctx.report(
            PER_RESOURCE_FORM, tp, f"per_resource type must be a string, not {describe(tp[1])}"
        )
    elif slot_vertex is not None:
        inside = {d.type for d in slot_vertex.descendants() if d.type}
        if tp[1].value not in inside:
            guess = suggest(tp[1].value, inside, cutoff=0.0) if inside else None
            ctx.report(
                PER_RESOURCE_TYPE,
                tp[1],
                f"the slot {slot_vertex.label!r} holds no {tp[1].value!r}; it holds "
                + (", ".join(sorted(inside)) or "nothing"),
                data={"suggestion": guess, "types": sorted(inside)} if guess else None,
            )
