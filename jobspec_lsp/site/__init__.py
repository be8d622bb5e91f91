"""Site profiles: the site's own Flux configuration (a conf.d directory) and the resources
it points at, read as Flux reads them, for checks of what can run *there*."""
