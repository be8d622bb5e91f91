#!/bin/sh
# Set flux directives
#FLUX: -N1
# Set job name:
#FLUX: --job-name=test
hostname; date
