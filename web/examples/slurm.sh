#!/bin/bash
#SBATCH --job-name=sim
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --time=01:30:00
#SBATCH --partition=pbatch
#SBATCH --mail-type=END
#SBATCH --output=sim-%j.out

echo "running job $SLURM_JOB_ID on $SLURM_JOB_NUM_NODES nodes"
srun --ntasks-per-node=4 ./sim input.deck
