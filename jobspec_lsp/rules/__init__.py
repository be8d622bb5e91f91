"""Rule families.  Importing this package registers every rule code.

JS1xx structure, JS2xx counts, JS3xx labels and tasks, JS4xx attributes,
JS50x constraints, JS51x dependencies, JS52x files, JS6xx V1, JS8xx
portability notes (the RFC allows it, an implementation does not), JS7xx
what blocks a conversion (reported by `jobspec convert` only), JS9xx
YAML level (defined in ``jobspec_lsp.jobspec.document``).
"""

from jobspec_lsp.rules import (  # noqa: F401
    attributes,
    constraints,
    convert,
    counts,
    dependencies,
    files,
    structure,
    targets,
    tasks,
    v1,
)
