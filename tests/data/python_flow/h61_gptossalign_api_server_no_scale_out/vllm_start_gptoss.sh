#!/bin/bash
# Imitates wagerc97/gpt-oss-alignment vllm_start_gptoss.sh (the OpenAI-compatible server the steering scripts query)
nohup python -u                       `#run in background, ignore hangup` \
	-m vllm.entrypoints.openai.api_server \
	--host 0.0.0.0                    `#so other machines on the cluster can access` \
	--port 8010                       `#API server port` \
	--model openai/gpt-oss-20b        `#model name`\
	--served-model-name gpt-oss-20b   `#endpoint name` \
	--tensor-parallel-size 2          `#define number of GPUs to use` \
	--max-model-len 2048              `#context length` \
	--return-sampling-mask --logprobs-mode processed_logprobs > ~/vllm_gptoss.log 2>&1 &  # expect: RPL301
