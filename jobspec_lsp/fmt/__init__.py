"""The formatter: comment-preserving layout of jobspec YAML and JSON.

May import: text, jobspec, config.
"""
