#!/bin/bash

SCRIPT_DIR="$(dirname "$0")"
WORK_DIR=$(cd "$SCRIPT_DIR/../.." && pwd)

set -x

# REINFORCE++-baseline with sampling distribution replay: the fork's create_vllm_engines starts
# every engine with return_sampling_mask=True and its samples generator asks top_k 50. The
# vLLM IS correction (--algo.advantage.is_correction_enable) is left off for this run.
MODEL_PATH="Qwen/Qwen3-4B-Thinking-2507"
DATASET_PATH="zhuzilin/dapo-math-17k"
SAVE_PATH="${WORK_DIR}/exp/Qwen3-4B-Thinking-replay"

CKPT_ARGS=(
   --actor.model_name_or_path ${MODEL_PATH}
   --ckpt.output_dir ${SAVE_PATH}
   --ckpt.path "${SAVE_PATH}/ckpt"
   --ckpt.save_hf
   --ckpt.max_num 3
   --ckpt.save_steps 10
)

ROLLOUT_ARGS=(
   --data.prompt_dataset ${DATASET_PATH}
   --data.input_key prompt
   --data.label_key label
   --data.max_len 74240
   --rollout.max_new_tokens 64000
   --data.apply_chat_template
   --ds.packing_samples

   --rollout.batch_size 128
   --rollout.n_samples_per_prompt 8
   --train.batch_size 1024

   --train.micro_batch_size 1
   --rollout.micro_batch_size 8
   --data.max_samples 128000
   --train.max_epochs 1
   --train.num_episodes 1
)

ENGINE_ARGS=(
   --ref.num_nodes 1
   --ref.num_gpus_per_node 4
   --actor.num_nodes 1
   --actor.num_gpus_per_node 4
   --vllm.num_engines 2
   --vllm.tensor_parallel_size 2
   --vllm.gpu_memory_utilization 0.7
   --train.colocate_all
   --ds.enable_sleep
   --vllm.sync_backend nccl
   --vllm.enforce_eager

   --ds.zero_stage 3
   --actor.gradient_checkpointing_enable
   --ds.param_dtype bf16
)

OPTIMIZER_ARGS=(
   --algo.advantage.estimator reinforce_baseline
   --actor.adam.lr 5e-7
   --actor.entropy_coef 0.0
   --algo.kl.init_coef 1e-5
   --algo.kl.use_loss
   --algo.kl.estimator k2
)

LOG_ARGS=(
   --logger.tensorboard_dir ${SAVE_PATH}/runs
   --logger.logging_steps 1
   --eval.steps -1
)

ray job submit --address="http://127.0.0.1:8265" \
   -- python3 -m openrlhf.cli.train_ppo_ray \
   ${CKPT_ARGS[@]} \
   ${ROLLOUT_ARGS[@]} \
   ${ENGINE_ARGS[@]} \
   ${OPTIMIZER_ARGS[@]} \
   ${LOG_ARGS[@]}
