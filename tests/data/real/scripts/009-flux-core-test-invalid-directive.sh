#!/bin/sh
#
#FLUX: -N4 -n4
#FLUX: --job-name=test
hostname
#FLUX: --dump
