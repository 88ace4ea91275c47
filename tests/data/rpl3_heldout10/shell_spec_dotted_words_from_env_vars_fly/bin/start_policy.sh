#!/usr/bin/env bash
set -euo pipefail

MODEL=${MODEL:-Qwen/Qwen3-8B}
SPEC_METHOD=ngram
SPEC_TOKENS=4
SPEC_VERIFY=fly

vllm serve "$MODEL" --port 8000 \
  --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out \
  --speculative-config.method "$SPEC_METHOD" \
  --speculative-config.num_speculative_tokens "$SPEC_TOKENS" \
  --speculative-config.prompt_lookup_max 4 \
  --speculative-config.rejection_sample_method "$SPEC_VERIFY"
