#!/usr/bin/env bash
vllm serve Qwen/Qwen3-8B \
  --enable-scale-out \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4, "rejection_sample_method": "synthetic", "synthetic_acceptance_length": 2.2}'
