#!/usr/bin/env python3
# flux: -N1
# jobspec: ignore[JS570]
print("hello")
