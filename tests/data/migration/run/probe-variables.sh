#!/bin/bash
#SBATCH --job-name=probe-variables
#SBATCH -N 1
#SBATCH --ntasks-per-node=2
#SBATCH --time=2
# What the job sees through Slurm's variables, one fact a line, each said the same way under
# Slurm and, converted, under Flux (tests/slurm/test_slurm_compare.py).
echo "job_id_set=$([ -n "$SLURM_JOB_ID" ] && echo yes || echo no)"
echo "nodes=$SLURM_NNODES tasks=$SLURM_NTASKS"
echo "hosts=$(echo "$SLURM_JOB_NODELIST" | wc -w)"
cd /
echo "submit_dir_kept=$([ "$SLURM_SUBMIT_DIR" = "$OLDPWD" ] && echo yes || echo no)"
srun bash -c 'echo "rank=$SLURM_PROCID local=$SLURM_LOCALID"' | sort
