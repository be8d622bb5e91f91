"""Flux's command line: the options of `flux run`, `submit`, `batch`, `alloc` and
`bulksubmit`, and how Flux reads a command line of them.

- :mod:`.model`: the options, as Flux's own parsers declare them
  (``flux_options.json``, written by ``scripts/flux_options.py`` under
  ``flux python``; the real-Flux tier fails when it drifts), with the project's
  words for each. Keyed by Flux version.
- :mod:`.argv`: a command line's words read as Flux's argparse parsers read them
  (Python 3.11's argparse, ``allow_abbrev=False``), every option with the source
  range of its name and value, and each refusal as a positioned problem.

Pure: no LSP, no files but the package's own data.

May import: record, boundary, notations.
"""
