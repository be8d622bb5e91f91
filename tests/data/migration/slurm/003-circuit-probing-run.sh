#!/bin/bash

#SBATCH -N 1-1 -n 1 
#SBATCH -p gpu --gres=gpu:1
#SBATCH --mem=60gb
#SBATCH -t 20:00



module load python/3.7.4
module load gcc/10.2
module load cuda/11.1.1
module load cudnn/8.2.0

source /gpfs/data/epavlick/mlepori/miniconda3/etc/profile.d/conda.sh

conda activate CircuitProbing
python $PROJECT_DIR/src/circuit_probing.py --config $CONFIG
