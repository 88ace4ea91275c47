set -x
uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  data.train_data="['$HOME/data/gsm8k/train.parquet']" \
  data.val_data="['$HOME/data/gsm8k/validation.parquet']" \
  trainer.policy.model.path="Qwen/Qwen2.5-1.5B-Instruct" \
  trainer.eval_interval=5 \
  generator.inference_engine.backend=vllm
