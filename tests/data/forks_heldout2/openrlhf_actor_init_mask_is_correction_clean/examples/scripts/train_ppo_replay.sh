#!/usr/bin/env bash
set -x

python3 -m openrlhf.cli.train_ppo_ray --actor.num_nodes 1 --actor.num_gpus_per_node 8 --vllm.num_engines 4 --vllm.tensor_parallel_size 2 --train.colocate_all --vllm.gpu_memory_utilization 0.5 --actor.model_name_or_path OpenRLHF/Llama-3-8b-sft-mixture --reward.model_name_or_path OpenRLHF/Llama-3-8b-rm-700k --data.prompt_dataset OpenRLHF/prompt-collection-v0.1 --data.input_key context_messages --vllm.enable_sleep --algo.advantage.is_correction_enable
