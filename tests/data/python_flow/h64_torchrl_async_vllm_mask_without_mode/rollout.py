# Imitates pytorch/rl torchrl/modules/llm/backends/vllm/vllm_async.py (AsyncVLLM's documented usage: from_pretrained, then generate with SamplingParams).
import ray
from torchrl.modules.llm.backends.vllm.vllm_async import AsyncVLLM
from vllm import SamplingParams


def main():
    ray.init()
    service = AsyncVLLM.from_pretrained(
        "Qwen/Qwen2.5-0.5B-Instruct",
        num_devices=1,
        num_replicas=1,
        max_model_len=2048,
        return_sampling_mask=True,  # expect: RPL003
    )

    sampling_params = SamplingParams(temperature=0.7, top_k=50, max_tokens=100)
    result = service.generate("Hello, world!", sampling_params)
    print(result.outputs[0].text)


if __name__ == "__main__":
    main()
