#!/bin/bash
#SBATCH --job-name=probe-ranks
#SBATCH --ntasks=2
#SBATCH --cpus-per-task=1
#SBATCH --time=2
# What the job sees, one fact a line, the same text under any scheduler that sets either
# Slurm's or Flux's task variables (tests/slurm/slurmside.py: run_under_slurm).
srun bash -c 'echo "rank=${SLURM_PROCID:-$FLUX_TASK_RANK} size=${SLURM_NTASKS:-$FLUX_JOB_SIZE}"' | sort
echo "cpus_per_task=${SLURM_CPUS_PER_TASK:-unset}"
echo "nodes=$(srun hostname | sort -u | wc -l)"
