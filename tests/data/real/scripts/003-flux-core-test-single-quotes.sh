#!/bin/sh
# flux: --setattr=user.data='{"option": "arg"}'
