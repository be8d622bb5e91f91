#!/bin/sh
# flux: --job-name='''It's a "job"
date; hostname
