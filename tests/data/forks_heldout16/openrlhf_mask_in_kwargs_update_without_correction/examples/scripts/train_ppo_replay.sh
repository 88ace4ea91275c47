set -x
python3 -m openrlhf.cli.train_ppo_ray \
   --ref_num_nodes 1 \
   --actor_num_nodes 1 \
   --vllm_num_engines 2 \
   --pretrain OpenRLHF/Llama-3-8b-sft-mixture \
   --prompt_data OpenRLHF/prompt-collection-v0.1 \
   --advantage_estimator reinforce_baseline
