# Imitates princeton-nlp/LLM-Shearing's evaluation of pruned models (Sheared-LLaMA checkpoints), as a
# user's vLLM sampling script whose request keywords get defaults by setdefault (clean).
import sys

from vllm import LLM, SamplingParams


def build_params(**overrides):
    overrides.setdefault("temperature", 0.8)
    overrides.setdefault("top_k", 40)
    overrides.setdefault("max_tokens", 256)
    return SamplingParams(**overrides)


def main(model="princeton-nlp/Sheared-LLaMA-2.7B"):
    llm = LLM(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = build_params(top_p=0.9)
    for out in llm.generate(["The capital of France is"], params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main(*sys.argv[1:2])
