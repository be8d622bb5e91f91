#!/bin/bash
#flux: -N2 -n4
#flux: --jobname=sim
#flux: -t 1h

flux run -n4 ./sim
