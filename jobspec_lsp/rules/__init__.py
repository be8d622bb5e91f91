"""Rules: the families, the registry's checks and what runs them.

Families: JS1xx structure, JS2xx counts, JS3xx labels and tasks, JS4xx attributes,
JS50x constraints, JS51x dependencies, JS52x files, JS6xx V1, JS8xx portability notes
(the RFC allows it, an implementation does not), JS7xx what blocks a conversion
(reported by `jobspec convert` only), JS9xx YAML level (in ``jobspec.document``).
Beside them: ``analysis`` (``check()``, the one entry point), ``targets`` (what real
Flux rejects), ``suppress`` (suppression comments), ``rulesdoc``.

Importing the package imports nothing else: the registry imports each module that
defines rules (``diagnostics.RULE_MODULES``) when it is first read, and
``analysis`` the families it runs.

May import: record, boundary, text, diagnostics, notations, fluxcli, site, jobspec. A site
profile's rules (``rules.site``, which reads the site room) load at the boundary
``analysis.SITE_CHECKS``.
"""
