"""YAML jobspec documents full of the constructs a formatter gets wrong: every
comment placement, blank lines, flow collections over several lines with
comments inside, block scalars (every chomping, explicit indentation, trailing
spaces, blank lines, '#' in the text), multi-line plain and quoted scalars,
YAML 1.1 trap scalars with anchors, aliases, merge keys, tags, duplicate keys,
`---`, indentation of 2 or 4, indentless sequences.

Every comment is unique (`# c17`), so a test can say where each one went.
Used by the suite (a hypothesis strategy, ``documents``) and by scripts/fuzz.py
(the same generator over many seeds)."""

from __future__ import annotations

import random

from hypothesis import strategies as st

TRAPS = [
    "yes",
    "no",
    "on",
    "0755",
    "1_000",
    "1:30",
    "2024-01-31",
    "~",
    "null",
    "+1",
    "-0",
    ".inf",
    "0x1F",
    "1e3",
    "3600.",
    "true",
    "Off",
    "=",
    "<<x",
    "0o17",
]
WORDS = ["app", "task", "plain", "a b c", "/bin/sh", "--flag", "x_y", "hello-world", "é"]
QUOTED = ["'it''s'", '"a # b"', "'#x'", '"tab\\tthere"', "''", '""', "'quoted'", '"dq"']
KEYS = [
    "version",
    "resources",
    "tasks",
    "attributes",
    "type",
    "count",
    "label",
    "with",
    "command",
    "slot",
    "per_slot",
    "min",
    "max",
    "operator",
    "operand",
    "system",
    "user",
    "duration",
    "zeta",
    "alpha",
    "'quoted key'",
    "0755",
    "yes",
    "x_y",
]


class _Gen:
    def __init__(self, r: random.Random):
        self.r = r
        self.n = 0
        self.anchors: list[tuple[str, str]] = []  # (name, "scalar" | "map" | "seq")
        self.names = 0
        self.depth = 0

    def anchor_name(self) -> str:
        self.names += 1
        return f"a{self.names}"

    def comment(self) -> str:
        self.n += 1
        return f"# c{self.n}" + self.r.choice(["", " a # b", " [x]", " 'q", " é"])

    def maybe_eol(self, p=0.25) -> str:
        r = self.r
        return (r.choice([" ", "  ", "    ", "\t "]) + self.comment()) if r.random() < p else ""

    def gap_lines(self, indent: int) -> list[str]:
        """Blank lines and comment lines before an entry (some deeper: they close a block)."""
        r = self.r
        out = []
        for _ in range(r.choice([0, 0, 0, 1, 1, 2])):
            kind = r.random()
            if kind < 0.35:
                out.append("")
            elif kind < 0.45:
                out.append("   ")  # white space only
            else:
                out.append(
                    " " * r.choice([indent, indent, indent + 2, max(indent - 2, 0)])
                    + self.comment()
                )
        return out

    # ------------------------------------------------------------ scalars
    def scalar(self) -> str:
        r = self.r
        k = r.random()
        if k < 0.35:
            s = r.choice(TRAPS)
        elif k < 0.65:
            s = r.choice(WORDS)
        elif k < 0.85:
            s = r.choice(QUOTED)
        else:
            s = str(r.randint(-5, 5000))
        if r.random() < 0.08:
            s = "!!str " + s
        if r.random() < 0.1:
            name = self.anchor_name()
            self.anchors.append((name, "scalar"))
            s = f"&{name} {s}"
        return s

    def multiline_scalar(self, indent: int) -> list[str]:
        """A plain or quoted scalar over several lines (continuations deeper than the key)."""
        r = self.r
        pad = " " * (indent + r.choice([2, 4]))
        if r.random() < 0.5:
            words = [
                r.choice(["alpha", "beta", "gamma", "x-y", "é"]) for _ in range(r.randint(2, 4))
            ]
            return [words[0]] + [pad + w for w in words[1:]]
        q = r.choice(["'", '"'])
        body = [
            r.choice(["one", "two", "it''s" if q == "'" else "t\\tab"])
            for _ in range(r.randint(2, 3))
        ]
        if r.random() < 0.3:
            body.insert(1, "")  # a blank line: a line break in the value
        lines = [q + body[0]] + [(pad + b) if b else "" for b in body[1:]]
        lines[-1] = lines[-1] + q
        return lines

    def block_scalar(self, indent: int) -> list[str]:
        r = self.r
        ind = r.choice(["", "", "2"])
        chomp = r.choice(["", "-", "+"])
        style = r.choice(["|", ">"])
        header = style + ind + chomp + (r.choice(["", "  # c-head"]) if r.random() < 0.2 else "")
        step = int(ind) if ind else r.choice([2, 4])
        pad = " " * (indent + step)
        lines = [header]
        for _ in range(r.randint(1, 4)):
            t = r.random()
            if t < 0.15:
                lines.append("")
            elif t < 0.25:
                lines.append(pad + "  indented more")
            else:
                lines.append(
                    pad
                    + r.choice(
                        ["#!/bin/sh", "echo hi", "x: 1", "- not a list", "# not a comment", "a  b"]
                    )
                    + r.choice(["", "", "  ", "\t"])
                )
        if not lines[1].strip() and not ind:
            lines[1] = pad + "first"
        if chomp == "+" and r.random() < 0.5:
            lines.append("")
        return lines

    # ------------------------------------------------------------ flows
    def flow(self, depth: int) -> str:
        r = self.r
        if depth > 2 or r.random() < 0.4:
            return self.scalar()
        if r.random() < 0.5:
            items = [self.flow(depth + 1) for _ in range(r.randint(0, 3))]
            return "[" + ", ".join(items) + "]"
        keys = r.sample(KEYS, r.randint(0, 3))
        return "{" + ", ".join(f"{k}: {self.flow(depth + 1)}" for k in keys) + "}"

    def multiline_flow(self, indent: int) -> list[str]:
        """A flow sequence over several lines, comments inside it."""
        r = self.r
        pad = " " * (indent + 2)
        lines = ["["]
        for _ in range(r.randint(1, 3)):
            lines.append(pad + self.flow(2) + "," + self.maybe_eol(0.5))
        if r.random() < 0.4:
            lines.append(pad + self.comment())
        lines.append(pad + "]")
        return lines

    # ------------------------------------------------------------ blocks
    def mapping(self, indent: int, keys=None) -> list[str]:
        r = self.r
        self.depth += 1
        keys = keys if keys is not None else r.sample(KEYS, r.randint(1, 4))
        if r.random() < 0.05 and keys:
            keys = keys + [keys[0]]  # a duplicate key
        out = []
        for k in keys:
            out.extend(self.gap_lines(indent))
            out.extend(self.entry(" " * indent + k + ":", indent))
        if r.random() < 0.08:
            maps = [a for a, kind in self.anchors if kind == "map"]
            if maps:
                out.append(" " * indent + f"<<: *{r.choice(maps)}")
        self.depth -= 1
        return out

    def sequence(self, indent: int) -> list[str]:
        r = self.r
        self.depth += 1
        out = []
        for _ in range(r.randint(1, 3)):
            out.extend(self.gap_lines(indent))
            dash = " " * indent + "-"
            t = r.random()
            if t < 0.3 and self.depth < 5:
                inner = self.mapping(indent + 2)
                first = inner[0] if inner else ""
                # the first key on the dash's line, when it is not a comment or blank
                j = next(
                    (
                        i
                        for i, ln in enumerate(inner)
                        if ln.strip() and not ln.strip().startswith("#")
                    ),
                    None,
                )
                if j is not None and j == 0:
                    out.append(dash + " " + first.lstrip())
                    out.extend(inner[1:])
                else:
                    out.append(dash + self.maybe_eol(0.5))
                    out.extend(inner)
            elif t < 0.35:
                out.append(dash)  # an empty item
            else:
                out.extend(self.entry(dash, indent))
        self.depth -= 1
        return out

    def entry(self, head: str, indent: int) -> list[str]:
        """``head`` (`key:` or `-`) and its value."""
        r = self.r
        t = r.random()
        step = r.choice([2, 2, 4])
        if self.depth >= 5:
            t = 0.0
        if t < 0.4:
            return [head + " " + self.scalar() + self.maybe_eol()]
        if t < 0.5:
            return [head + " " + self.flow(0) + self.maybe_eol()]
        if t < 0.55:
            lines = self.multiline_flow(indent)
            return [head + " " + lines[0]] + lines[1:]
        if t < 0.62:
            lines = self.multiline_scalar(indent)
            return [head + " " + lines[0]] + lines[1:]
        if t < 0.72:
            lines = self.block_scalar(indent)
            return [head + " " + lines[0]] + lines[1:]
        if t < 0.77 and self.anchors:
            name, _kind = r.choice(self.anchors)
            return [head + f" *{name}" + self.maybe_eol()]
        anchor = ""
        if r.random() < 0.1:
            anchor = f" &{self.anchor_name()}"
        if t < 0.9:
            body = self.mapping(indent + step)
            if anchor:
                self.anchors.append((anchor[2:], "map"))
        else:
            deeper = indent + r.choice([0, 2]) if head.rstrip().endswith(":") else indent + 2
            body = self.sequence(deeper)
            if anchor:
                self.anchors.append((anchor[2:], "seq"))
        return [head + anchor + self.maybe_eol()] + body


def generate(r: random.Random) -> str:
    """One document (it may, rarely, not parse: callers skip those)."""
    g = _Gen(r)
    lines = []
    if r.random() < 0.3:
        lines += [g.comment(), ""]
    if r.random() < 0.2:
        lines.append("---" + g.maybe_eol(0.3))
    top = ["version", "resources", "tasks", "attributes"]
    r.shuffle(top)
    lines += g.mapping(0, top + r.sample(["zeta", "user", "x_y"], r.randint(0, 1)))
    if r.random() < 0.3:
        lines += ["", g.comment()]
    text = "\n".join(lines) + "\n"
    if r.random() < 0.05:
        text = text.replace("\n", "\r\n")
    return text


documents = st.builds(generate, st.randoms(use_true_random=False))
