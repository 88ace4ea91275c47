#!/bin/bash
set -x
uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  data.train_data="['data/gsm8k/train.parquet']" \
  trainer.policy.model.path="Qwen/Qwen2.5-1.5B-Instruct" \
  trainer.strategy=fsdp \
  generator.inference_engine.backend=vllm \
  generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \
  generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs \
  generator.sampling_params.top_k=50 \
  generator.sampling_params.repetition_penalty=1.1 \
  generator.eval_sampling_params.top_k=50 \
  trainer.epochs=20
