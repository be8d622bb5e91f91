"""What a text looks like before any reader runs: whether it holds an RFC 36 directive
line, or an `#SBATCH` one. The directory walk, the kind detector and the server ask this of texts they have not
read; `job/directives.py` reads the lines it finds."""

from __future__ import annotations

import re

# a sentinel in any case: `#Flux:` is meant as one, but Flux reads only flux: and FLUX:
LOOKALIKE = re.compile(r"^[^\w\n\r]*flux:", re.M | re.I)


def has_sentinel(text: str) -> bool:
    """Whether ``text`` holds an RFC 36 directive (a line starting with a sentinel), or
    a line that looks like one in another case (``#Flux:``, which Flux ignores)."""
    return LOOKALIKE.search(text) is not None


_ANY_SBATCH = re.compile(r"^#SBATCH(?=[ \t\r]|$)", re.M)


def has_directives(text: str) -> bool:
    """Whether ``text`` holds a line starting with an `#SBATCH` directive."""
    return "#SBATCH" in text and _ANY_SBATCH.search(text) is not None
