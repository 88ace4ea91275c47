from .vllm_sampler import vLLMSampler
