# Imitates InternLM/xtuner examples/v1/config/rl_grpo_*.py (rollout_config = RolloutConfig(...)) and the worker launch
from xtuner.v1.ray.config.worker import RolloutConfig
from xtuner.v1.ray.rollout.vllm import vLLMWorker

rollout_config = RolloutConfig(
    model_path="Qwen/Qwen3-8B",
    tensor_parallel_size=2,
    rollout_max_batch_size=256,
    return_sampling_mask=True,
)

if __name__ == "__main__":
    vLLMWorker(rollout_config).launch_server().wait()
