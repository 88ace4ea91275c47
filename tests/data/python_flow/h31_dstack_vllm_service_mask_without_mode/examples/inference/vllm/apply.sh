#!/bin/bash
# Imitates dstackai/dstack examples/inference/vllm/README.md ("Running a configuration"): the service
# in vllm.dstack.yaml beside it is submitted with `dstack apply`.
set -e
dstack apply -f examples/inference/vllm/vllm.dstack.yaml
