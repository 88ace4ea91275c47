set -x

# GRPO on GSM8K (after examples/train/gsm8k/run_gsm8k.sh)
DATA_DIR="$HOME/data/gsm8k"
NUM_GPUS=4

uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  data.train_data="['$DATA_DIR/train.parquet']" \
  data.val_data="['$DATA_DIR/validation.parquet']" \
  trainer.algorithm.advantage_estimator="grpo" \
  trainer.policy.model.path="Qwen/Qwen2.5-1.5B-Instruct" \
  trainer.placement.colocate_all=true \
  trainer.strategy=fsdp2 \
  trainer.placement.policy_num_gpus_per_node=$NUM_GPUS \
  generator.inference_engine.num_engines=$NUM_GPUS \
  generator.inference_engine.tensor_parallel_size=1 \
  generator.inference_engine.gpu_memory_utilization=0.8 \
  generator.sampling_params.top_k=20 \
  generator.n_samples_per_prompt=5 \
  trainer.eval_before_train=false \
  trainer.eval_interval=-1 \
  trainer.epochs=20 \
  trainer.logger="console" \
  trainer.project_name="gsm8k" \
  trainer.run_name="gsm8k_grpo"
