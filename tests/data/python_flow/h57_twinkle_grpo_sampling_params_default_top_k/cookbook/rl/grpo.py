# Imitates tastelikefeet/twinkle (src/twinkle/sampler/vllm_sampler/vllm_sampler.py, vllm_engine.py,
# src/twinkle/data_format/sampling.py): a GRPO rollout script handing engine_args to vLLMSampler.
import os

from twinkle.data_format import SamplingParams
from twinkle.sampler.vllm_sampler import vLLMSampler

MODEL_ID = os.environ.get('MODEL_ID', 'Qwen/Qwen2.5-0.5B-Instruct')
NUM_GENERATIONS = 8
MAX_NEW_TOKENS = 1024


def build_sampler():
    return vLLMSampler(
        model_id=MODEL_ID,
        engine_args={
            'gpu_memory_utilization': 0.5,
            'max_model_len': 2048,
            'return_sampling_mask': True,
        },
    )


def main():
    sampler = build_sampler()
    sampling_params = SamplingParams(
        max_tokens=MAX_NEW_TOKENS,
        temperature=1.0,
        num_samples=NUM_GENERATIONS,
    )
    batch = [{'input_ids': [151644, 872, 198, 3838, 374, 220, 17, 10, 17, 30]}]
    for step in range(4):
        responses = sampler.sample(batch, sampling_params=sampling_params)
        print(step, [len(s.tokens) for r in responses for s in r.sequences])


if __name__ == '__main__':
    main()
