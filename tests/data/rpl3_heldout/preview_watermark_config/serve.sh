#!/bin/bash
vllm serve google/gemma-3-12b-it \
  --enable-scale-out \
  --generation-config vllm \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --watermark-config '{"key": 20260101, "algorithm": "gumbel"}'
