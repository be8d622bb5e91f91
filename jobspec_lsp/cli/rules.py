"""`jobspec rules [CODE]`: every rule a line, a family's rules (a prefix such as JS57),
or one rule explained: what it finds, why, the kinds it applies to, its fix, an example,
and its page on the documentation site (under --docs-url, else the docs-url of the
current folder's configuration, else the project's site)."""

from __future__ import annotations

from pathlib import Path

from jobspec_lsp import config
from jobspec_lsp.cli.output import UsageError
from jobspec_lsp.diagnostics import RULES, is_code_or_prefix, rule_url, unknown_code
from jobspec_lsp.rules.rulesdoc import SAFETY_WORDS


def run(args) -> int:
    if not args.code:
        for code in sorted(RULES):
            _rule_line(RULES[code])
        return 0
    code = args.code.strip().upper()
    rule = RULES.get(code)
    if rule is None and is_code_or_prefix(code):  # a family: its rules, as the list
        for c in sorted(c for c in RULES if c.startswith(code)):
            _rule_line(RULES[c])
        return 0
    if rule is None:
        raise UsageError(unknown_code(args.code))
    print(f"{rule.code} {rule.name} ({rule.severity.label})\n\n{rule.summary}\n\n{rule.why}\n")
    print(f"Applies to: {', '.join(rule.kinds)}")
    if rule.fix:
        print(f"Fix: {SAFETY_WORDS[rule.safety]}")
    print()
    print("Bad:\n" + _indent(rule.bad) + "\nFixed:\n" + _indent(rule.good))
    base = args.docs_url or config.load(Path.cwd()).docs_url
    print(f"Documentation: {rule_url(rule.code, base)}")
    return 0


def _rule_line(rule) -> None:
    print(f"{rule.code}  {rule.severity.label:<11}  {rule.name:<32}  {rule.summary}")


def _indent(text):
    return "".join("    " + line + "\n" for line in text.splitlines())
