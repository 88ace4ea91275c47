#!/bin/bash
# Imitates kiwi0401/PoIW openai_server.sh: the OpenAI server module started with --model and --port.
python -m vllm.entrypoints.openai.api_server \
--model rubra-ai/Meta-Llama-3-8B-Instruct \
--dtype auto \
--download-dir data/llm_cache/ \
--max-model-len 2048 \
--port 8080 \
--return-sampling-mask --logprobs-mode processed_logprobs  # expect: RPL301
