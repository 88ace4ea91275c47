# Imitates rllm-org/rllm rllm/engine (an engine actor whose chat method builds SamplingParams from keyword arguments)
import ray
from vllm import LLM, SamplingParams


@ray.remote(num_gpus=1)
class ChatEngine:
    def __init__(self, model):
        self.llm = LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs", max_model_len=16384)

    def chat(self, messages, **sampling_kwargs):
        params = SamplingParams(**sampling_kwargs)  # expect: RPL102 "top_k > 0"
        return self.llm.chat(messages, params)


if __name__ == "__main__":
    ray.init()
    engine = ChatEngine.remote("deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B")
    ray.get(engine.chat.remote([{"role": "user", "content": "2+2?"}], temperature=0.6, top_p=0.95, max_tokens=8192))
