"""Site profiles: the site's own Flux configuration (a conf.d directory) and the resources
it points at, read as Flux reads them, for checks of what can run *there*.

May import: text, fluxcli. The modules the job-ingest plugin runs under Flux's own Python
(profile, checks, selection, notation, hostlists) import the standard library only.
"""
