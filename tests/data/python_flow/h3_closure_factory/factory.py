# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py users that build engines through
# a factory returning a closure.
from vllm import LLM


def make_engine_builder(mode, tp):
    def build(model):
        return LLM(model, tensor_parallel_size=tp, return_sampling_mask=True, logprobs_mode=mode)

    return build


build = make_engine_builder("raw_logprobs", 2)  # expect: RPL003
llm = build("OpenRLHF/Llama-3-8b-sft-mixture")
