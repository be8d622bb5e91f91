"""The tools agents call and the verdict they return: pure adapters from the core to JSON.
``verdict`` says a finding (code, severity, message, range, fixes with their safety) as
JSON, the one shape `jobspec check --format json` shares with the tools, and ships its
schema; ``tools`` declares each tool (check, fix, convert, new, explain, show_jobspec) and
answers it, JSON in and out; ``migration`` says a conversion as carried, approximated and
refused; ``server`` serves the tools over stdio with the MCP SDK, the only module that
loads it (`jobspec mcp`). See docs/agents.md.

May import: record, text, diagnostics, fluxcli, site, jobspec, rules, config, convert,
migrate, features, script, kinds."""
