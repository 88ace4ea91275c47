# Imitates dottxt-ai/outlines (outlines-dev/outlines) outlines/models/vllm_offline.py and docs/features/models/vllm_offline.md (from_vllm_offline, sampling_params forwarded)
import outlines
from vllm import LLM, SamplingParams

MODEL_NAME = "microsoft/Phi-3-mini-4k-instruct"


def load_model():
    engine = LLM(
        MODEL_NAME,
        max_model_len=4096,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    return outlines.from_vllm_offline(engine)


def rollout(model, prompts):
    params = SamplingParams(temperature=0.8, top_p=0.9, top_k=64, max_tokens=256, n=4)
    return [model(prompt, sampling_params=params) for prompt in prompts]


if __name__ == "__main__":
    model = load_model()
    print(rollout(model, ["Write a limerick about queues."]))
