set -x

# Colocated GRPO on GSM8K with sampling distribution replay (fork).
# uv run examples/train/gsm8k/gsm8k_dataset.py --output_dir $HOME/data/gsm8k
# bash examples/train/gsm8k/run_gsm8k_replay.sh

DATA_DIR="$HOME/data/gsm8k"
NUM_GPUS=4
LOGGER="wandb"

uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  data.train_data="['$DATA_DIR/train.parquet']" \
  trainer.policy.model.path="Qwen/Qwen2.5-1.5B-Instruct" \
  trainer.placement.colocate_all=true \
  trainer.strategy=fsdp2 \
  trainer.placement.policy_num_gpus_per_node=$NUM_GPUS \
  generator.inference_engine.num_engines=$NUM_GPUS \
  generator.inference_engine.tensor_parallel_size=1 \
  generator.inference_engine.sampling_replay=true \
  generator.sampling_params.top_k=20 \
  generator.n_samples_per_prompt=5 \
  trainer.eval_before_train=false \
  trainer.eval_interval=-1 \
  trainer.epochs=20 \
  trainer.logger="$LOGGER" \
  trainer.project_name="gsm8k_replay"
