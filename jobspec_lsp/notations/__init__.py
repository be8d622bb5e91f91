"""The small notations jobspec and Flux's options hold: idsets, ranges, hostlists, Flux Standard Durations (formats), RFC 35 constraint queries, RFC 46 resource shapes.

May import: boundary.
"""
