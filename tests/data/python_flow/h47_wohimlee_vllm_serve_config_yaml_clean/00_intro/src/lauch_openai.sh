#!/bin/bash
# Imitates WohimLee/vLLM-Tutorial 00_intro/src/lauch_openai.sh and 00_intro/config/basic.yaml (the tutorial's
# `vllm serve` with its settings in a config file), with replay turned on in the YAML: mask, processed logprobs
# and scale-out, so nothing is wrong.
cd "$(dirname "$0")/.."

vllm serve --config config/basic.yaml
