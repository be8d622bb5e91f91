#!/bin/bash
#SBATCH --job-name=sim
#SBATCH -N 2 --ntasks-per-node=4
#SBATCH --time=01:30:00 --mem=8G

echo "job $SLURM_JOB_ID"
srun ./sim
