"""Batch scripts: RFC 36 directives read as Flux reads them, the directive and command-line checks and the jobspec `flux batch` builds (batch), Slurm scripts converted (sbatch).

May import: boundary, text, diagnostics, notations, fluxcli, site, job, jobspec, rules, migrate, features.
"""
