#!/bin/bash
# Generate the model's outputs locally with vLLM (the config in src/alpaca_eval/models_configs/).
alpaca_eval evaluate_from_model --model_configs Qwen2.5-1.5B-Instruct
