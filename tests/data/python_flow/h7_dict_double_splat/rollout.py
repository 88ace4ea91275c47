# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine/factory.py: the actor's keyword
# arguments are merged with dict(**a, **b) before the engine is built.
import vllm

BASE_ENGINE = {
    "model": "meta-llama/Llama-3.1-8B-Instruct",
    "dtype": "bfloat16",
    "gpu_memory_utilization": 0.8,
}
REPLAY_ENGINE = {
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "max_logprobs": 1,
}


def build_engine(extra_processors=("rollout.processors:ForceEos",)):  # expect: RPL001
    engine_kwargs = dict(**BASE_ENGINE, **REPLAY_ENGINE, logits_processors=list(extra_processors))
    return vllm.LLM(**engine_kwargs)


if __name__ == "__main__":
    engine = build_engine()
