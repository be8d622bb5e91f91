#!/bin/sh
#
#FLUX: -N4 -n4
#FLUX: --setattr=user.foo="""
#FLUX: [table]
#FLUX: value = "foo"
#FLUX: ""
date; hostname
