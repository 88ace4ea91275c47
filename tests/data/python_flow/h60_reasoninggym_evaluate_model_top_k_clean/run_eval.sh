#!/bin/bash
# Evaluate the trained games checkpoint with vLLM.
python evaluate_model.py --config eval_games_composite.yaml
