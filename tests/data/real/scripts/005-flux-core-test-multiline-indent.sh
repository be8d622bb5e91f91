#!/bin/sh
# flux: -N4 --exclusive
# flux: --setattr=user.conf="""
# flux: [config]
# flux:   item = "foo"
# flux: """
foo
