# Imitates vllm-project/vllm/examples/offline_inference/rlhf.py (settings read from the environment with
# os.environ.get and a default, the default being what a plain `python offline_rollout.py` uses)
import os

from vllm import LLM, SamplingParams

ENGINE_KWARGS = dict(
    model=os.environ.get("ROLLOUT_MODEL", "facebook/opt-125m"),
    tensor_parallel_size=int(os.environ.get("ROLLOUT_TP", "1")),
    return_sampling_mask=True,
    logprobs_mode=os.environ.get("ROLLOUT_LOGPROBS_MODE", "raw_logprobs"),  # expect: RPL003
)


def main() -> None:
    llm = LLM(**ENGINE_KWARGS)
    params = SamplingParams(temperature=1.0, top_k=32, max_tokens=64)
    for out in llm.generate(["The capital of France is"], params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
