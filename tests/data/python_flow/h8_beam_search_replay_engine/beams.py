# Imitates vllm-project/vllm examples/offline_inference (LLM.beam_search) on a policy built by a helper, as rllm's eval scripts do
from vllm import LLM
from vllm.sampling_params import BeamSearchParams


def make_policy():
    return LLM("Qwen/Qwen3-1.7B", return_sampling_mask=True, logprobs_mode="processed_logprobs")


def best_of_beams(llm, prompts):
    return llm.beam_search([{"prompt": p} for p in prompts], BeamSearchParams(beam_width=4, max_tokens=64))  # expect: RPL101  # expect: RPL102


if __name__ == "__main__":
    best_of_beams(make_policy(), ["The capital of France is"])
