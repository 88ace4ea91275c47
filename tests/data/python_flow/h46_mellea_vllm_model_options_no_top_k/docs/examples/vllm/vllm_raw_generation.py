# Imitates generative-computing/mellea docs/examples and test/backends/test_vllm.py (a LocalVLLMBackend with model_options), trimmed.
import asyncio

from mellea.backends.model_options import ModelOption
from mellea.backends.vllm import LocalVLLMBackend


def main():
    backend = LocalVLLMBackend(
        model_id="ibm-granite/granite-3.3-2b-instruct",
        model_options={
            # made smaller for a testing environment with smaller gpus.
            "gpu_memory_utilization": 0.8,
            "max_model_len": 2048,
            "max_num_seqs": 8,
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
            ModelOption.TEMPERATURE: 0.7,
        },
    )
    prompts = ["What is 1+1?", "What is 2+2?", "What is 3+3?"]
    results = asyncio.run(
        backend.generate_from_raw(
            prompts, model_options={ModelOption.MAX_NEW_TOKENS: 100}
        )
    )
    for r in results:
        print(r)


if __name__ == "__main__":
    main()
