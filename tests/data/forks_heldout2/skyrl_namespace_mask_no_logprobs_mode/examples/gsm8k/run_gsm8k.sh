#!/usr/bin/env bash
set -x

uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base trainer.policy.model.path=Qwen/Qwen2.5-1.5B-Instruct generator.inference_engine.backend=vllm generator.inference_engine.num_engines=4 trainer.epochs=20
