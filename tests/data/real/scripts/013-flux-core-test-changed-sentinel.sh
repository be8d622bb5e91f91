#!/bin/sh
#
# flux: -N4 --job-name=test
# flux: --output=flux-{{id}}.out
#flux: --dump
#
