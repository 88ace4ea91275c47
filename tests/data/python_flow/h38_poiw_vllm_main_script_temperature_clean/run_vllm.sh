#!/bin/bash
# Imitates kiwi0401/PoIW script.sh (a SLURM batch script), here starting vllm/main.py.
#SBATCH --gres=gpu:volta:1

# Loading the required module
module load anaconda/Python-ML-2023b

# Run the script
python vllm/main.py --temperature 0.8 --max-tokens 64
