# Imitates allenai/open-instruct open_instruct/grpo_fast.py: the trainer building engines and sampling params
from vllm import SamplingParams

from .vllm_actors import create_vllm_engines


def main(model="allenai/OLMo-2-1124-7B-DPO", temperature=1.0):
    engines = create_vllm_engines(4, 1, model, 1, 8192)
    generation_config = SamplingParams(temperature=temperature, top_p=1.0, top_k=100, max_tokens=4096, n=16)
    return [engine.generate.remote(["q"], generation_config) for engine in engines]


if __name__ == "__main__":
    main()
