#!/bin/bash
#BSUB -nnodes 4
#BSUB -W 02:00
#BSUB -J cosmoflow
#BSUB -q pdebug
#BSUB -o out.%J.log

module load spectrum-mpi
jsrun -n 16 -a 1 -c 10 -g 1 ./train --epochs 10
