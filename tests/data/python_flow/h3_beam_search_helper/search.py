# Imitates vllm-project/vllm examples/offline_inference/ beam search use, with the engine made by
# a helper of the module and beam search run on it.
from vllm import LLM
from vllm.sampling_params import BeamSearchParams


def load_engine(model):
    return LLM(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def search(prompts):
    engine = load_engine("facebook/opt-125m")
    params = BeamSearchParams(beam_width=4, max_tokens=64)  # expect: RPL101  # expect: RPL102
    return engine.beam_search(prompts, params)


search([{"prompt": "The future of AI is"}])
