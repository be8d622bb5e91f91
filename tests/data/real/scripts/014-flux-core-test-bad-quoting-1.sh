#!/bin/sh
#
# flux: --job-name="foo
