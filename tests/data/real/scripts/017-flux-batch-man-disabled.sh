#!/bin/sh
# flux: -N4
# flux: # -N8  (disabled)
