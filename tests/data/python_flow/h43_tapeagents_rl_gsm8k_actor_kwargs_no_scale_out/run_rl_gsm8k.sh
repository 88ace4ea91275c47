#!/bin/bash
# Imitates ServiceNow/TapeAgents examples/rl_gsm8k/README.md (its launch command, run from the repository root).
python -m examples.rl_gsm8k.orchestrate_rl output_dir=outputs/my_rl_run
