set -x
export VLLM_USE_V2_MODEL_RUNNER=0
python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --actor.num_nodes 1 \
   --vllm.num_engines 2 \
   --actor.model_name_or_path OpenRLHF/Llama-3-8b-sft-mixture \
   --data.prompt_dataset OpenRLHF/prompt-collection-v0.1 \
   --algo.advantage.estimator reinforce_baseline
