# Imitates hiyouga/EasyR1 verl/workers/fsdp_workers.py (_build_rollout: fill the auto keys, build vLLMRollout)
from verl.workers.rollout.config import RolloutConfig
from verl.workers.rollout.vllm_rollout_spmd import vLLMRollout

config = RolloutConfig(n=5, temperature=1.0)
config.prompt_length = 2048
config.response_length = 1024
rollout = vLLMRollout("Qwen/Qwen2.5-7B-Instruct", config)
print(rollout.generate_sequences([[151644, 872, 198]]))
