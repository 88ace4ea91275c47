# Imitates allenai/open-instruct open_instruct/vllm_utils.py: a module-level engine config is
# deep-copied and then adjusted for the run before the engine starts.
import copy

from vllm import LLM, SamplingParams

DEFAULT_ENGINE_CONFIG = {
    "model": "allenai/OLMo-2-1124-7B-Instruct",
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "max_model_len": 4096,
}


def engine_for_debug_run():
    config = copy.deepcopy(DEFAULT_ENGINE_CONFIG)
    config["max_model_len"] = 2048
    config["logprobs_mode"] = "raw_logprobs"  # expect: RPL003
    return LLM(**config)


def run():
    llm = engine_for_debug_run()
    params = SamplingParams(temperature=0.7, top_k=64, max_tokens=128)
    return llm.generate(["Write a haiku about rain."], params)


if __name__ == "__main__":
    run()
