"""Migration to Flux from Slurm, LSF and PBS: one request model read from each
scheduler's directives (`slurm`, `lsf`, `pbs`), the Flux allocation that keeps it
(`model`), launch lines (`launch`) and scheduler variables (`body`) converted, and the
whole script written (`convert`).

May import: record, text, notations, fluxcli, job.
"""
