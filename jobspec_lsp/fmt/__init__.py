"""The formatter: comment-preserving layout of jobspec YAML and JSON."""
