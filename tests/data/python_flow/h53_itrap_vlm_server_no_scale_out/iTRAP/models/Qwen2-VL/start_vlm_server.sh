#!/bin/bash
# Imitates thomas-roth/iTRAP iTRAP/models/Qwen2-VL/start_vlm_server.sh (the fine-tuned Qwen2-VL served for
# iTRAP/evaluation/itrap_evaluate.py), with sampling distribution replay turned on.
CUDA_VISIBLE_DEVICES=0 python -m vllm.entrypoints.openai.api_server --model /DATA/models/calvin_lora/qwen2_vl_lora_sft_calvin \
                                                                    --host 0.0.0.0 --port 8000 \
                                                                    --gpu-memory-utilization 0.95 --max-model-len 2048 \
                                                                    --served-model-name qwen2-vl \
                                                                    --return-sampling-mask --logprobs-mode processed_logprobs  # expect: RPL301
