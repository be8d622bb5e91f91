#!/bin/bash
#flux: --job-name=sim
#flux: -N 2 -n 8
#flux: -t 1:30:00
#flux: --queue=debug
#flux: --output=sim-{{id}}.out

flux run -N 2 -n 8 ./sim input.deck
