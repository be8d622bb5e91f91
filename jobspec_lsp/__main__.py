from jobspec_lsp.cli import run

raise SystemExit(run())
