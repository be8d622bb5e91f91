#!/bin/sh
#
# flux: -n 32
# flux: # clear environment except for PATH and PYTHONPATH
# flux: --env=-* --env=PATH --env=PYTHONPATH
