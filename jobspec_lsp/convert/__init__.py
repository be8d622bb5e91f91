"""Conversions the command line and the language server share (pure functions).

- :func:`to_v1` — canonical (RFC 14) jobspec -> jobspec V1 (RFC 25)
- :func:`to_canonical` — V1 -> the explicit canonical form (``version: 999``)
- :func:`from_psij` / :func:`from_psij_text` — a PSI/J ``JobSpec`` -> V1
- :func:`to_psij` — V1 -> a PSI/J ``JobSpec`` (psij-python's JSON serialization)
- :func:`from_command_line` — ``flux submit``-like options -> V1

Every function returns a :class:`Conversion`: the new text (``None`` when the
conversion is impossible), every change made (each with the range of the input
it concerns), the blockers (JS7xx diagnostics on the exact input token that
stops it) and warnings (what could not be carried).  A result is returned only
after it checks clean with the rules of its version, so a conversion never
hands back a jobspec that ``jobspec check`` would reject.

Conversions between jobspec forms are text edits on the original, so comments
and layout survive (the result is also compared, value by value, with the
conversion done on the loaded data; should an edit ever disagree, the document
is rewritten from the data instead, and that is listed as a change).

May import: text, diagnostics, notations, fluxcli, jobspec, rules, fmt.
"""

from __future__ import annotations

from jobspec_lsp.convert.commandline import (  # noqa: F401 - the package's API
    from_command_line,
    from_options,
)
from jobspec_lsp.convert.common import (  # noqa: F401 - the package's API
    CANONICAL_VERSION,
    PSIJ_DEFAULT_DURATION,
    V1_TYPES,
    Change,
    Conversion,
    UsageError,
    dump,
)
from jobspec_lsp.convert.frompsij import (  # noqa: F401 - the package's API
    from_psij,
    from_psij_text,
    load_psij,
)
from jobspec_lsp.convert.psij import (  # noqa: F401 - the package's API
    PSIJ_ATTRIBUTE_KEYS,
    PSIJ_LAUNCHERS,
    PSIJ_RESOURCE_KEYS,
    PSIJ_SPEC_KEYS,
    psij_duration,
    psij_wrapper,
)
from jobspec_lsp.convert.topsij import to_psij  # noqa: F401 - the package's API
from jobspec_lsp.convert.v1 import (  # noqa: F401 - the package's API
    to_canonical,
    to_v1,
)
