from jobspec_lsp.cli import main

raise SystemExit(main())
