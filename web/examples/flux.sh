#!/bin/bash
#flux: --job-name=sim
#flux: -N 2 --tasks-per-node=4
#flux: -t 90m
#flux: --queue=debug
#flux: --setattr=system.exclusive=yes

flux run -N 2 --tasks-per-node=4 ./sim input.deck
