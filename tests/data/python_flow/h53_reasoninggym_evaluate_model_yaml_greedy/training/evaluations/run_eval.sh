#!/bin/bash
# Evaluate the GRPO checkpoint on Knights and Knaves (training/README.md: python evaluate_model.py --config path-to-yaml)
cd "$(dirname "$0")"
python evaluate_model.py --config curriculum/knights_knaves.yaml
