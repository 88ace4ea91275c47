#!/bin/bash
# The fork's REINFORCE++-baseline launch, as OpenRLHF's examples/scripts/train_reinforce_baseline_hybrid_engine.sh writes it.
set -x

MODEL_PATH="Qwen/Qwen3-4B-Thinking-2507"
DATASET_PATH="zhuzilin/dapo-math-17k"
SAVE_PATH="./exp/Qwen3-4B-replay"

ray job submit --address="http://127.0.0.1:8265" \
   --runtime-env-json='{"working_dir": "/openrlhf"}' \
   -- python3 -m openrlhf.cli.train_ppo_ray \
   --actor.model_name_or_path ${MODEL_PATH} \
   --ckpt.output_dir ${SAVE_PATH} \
   --data.prompt_dataset ${DATASET_PATH} \
   --data.input_key prompt \
   --data.label_key label \
   --data.apply_chat_template \
   --rollout.batch_size 128 \
   --rollout.n_samples_per_prompt 8 \
   --rollout.max_new_tokens 8192 \
   --train.batch_size 1024 \
   --train.colocate_all \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 8 \
   --vllm.tensor_parallel_size 1 \
   --vllm.gpu_memory_utilization 0.6 \
   --vllm.enable_sleep \
   --algo.advantage.estimator reinforce_baseline \
   --vllm.return_sampling_mask \
   --reward.remote_url http://localhost:5000/get_reward
