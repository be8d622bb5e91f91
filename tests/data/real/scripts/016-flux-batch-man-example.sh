#!/bin/sh
# flux: -N4 -n16
flux run -n16 hostname
