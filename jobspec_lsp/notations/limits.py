"""How far the notation readers go: the longest number and the deepest nesting they read,
far beyond any real jobspec and well inside what Python converts and recurses through."""

# Numbers longer than this (leading zeros aside) are refused as too large. No
# Flux id, count or host index comes near it, and it keeps int() away from
# Python's limit on converting very long digit strings.
MAX_DIGITS = 18

# How deep a parsed string (a shape, a constraint query) may nest: far beyond any real
# one, and well inside Python's recursion limit for the code that walks it.
MAX_NESTING = 100
