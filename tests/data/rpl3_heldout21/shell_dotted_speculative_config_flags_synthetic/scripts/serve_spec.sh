#!/usr/bin/env bash
# n-gram speculation on the replay server; acceptance is simulated while we size the cluster.
set -euo pipefail

exec vllm serve Qwen/Qwen3-8B \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out \
  --speculative-config.method ngram \
  --speculative-config.num_speculative_tokens 4 \
  --speculative-config.prompt_lookup_max 4 \
  --speculative-config.rejection_sample_method synthetic \
  --speculative-config.synthetic_acceptance_length 2.5
