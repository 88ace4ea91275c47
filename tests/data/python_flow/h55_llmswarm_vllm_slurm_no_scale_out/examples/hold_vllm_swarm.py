# Imitates huggingface/llm-swarm llm_swarm/__init__.py (the `__main__` block holding the swarm open) and
# examples/hello_world_vllm.py (LLMSwarmConfig with inference_engine="vllm" and templates/vllm_h100.template.slurm).
from llm_swarm import LLMSwarm, LLMSwarmConfig

if __name__ == "__main__":
    with LLMSwarm(
        LLMSwarmConfig(
            instances=2,
            inference_engine="vllm",
            slurm_template_path="templates/vllm_h100.template.slurm",
            load_balancer_template_path="templates/nginx.template.conf",
        )
    ) as llm_swarm:
        print(f"endpoint: {llm_swarm.endpoint}")
        while True:
            input("Press Enter to EXIT...")
            break
