#!/bin/bash
# Imitates FlagOpen/FlagScale's inference launch of flagscale/inference/inference_aquila.py with an example config
set -e
export PYTHONPATH=$(pwd):$PYTHONPATH
python flagscale/inference/inference_aquila.py --config-path examples/aquila/conf/inference/7b.yaml
