"""Text and files: positions and the line index, minimal edits, where documents come from and which reader they get.

May import: record, boundary.
"""
