"""A batch job as its script states it, below both the Flux script checks (`script/`) and
the migration (`migrate/`): `directives` (the RFC 36 reader of `#flux:` lines, as flux-core
reads them), `shellread` (where `$` expands nothing in a shell script) and `steps` (the job
model: the allocation and each launch step, every value with the words that gave it).

May import: record, text, diagnostics, fluxcli.
"""
