# Imitates QwenLM/Qwen3 README.md and docs/source/deployment/vllm.md (offline LLM.chat with the recommended sampling for thinking mode)
from vllm import LLM, SamplingParams

from replay_settings import REPLAY_ENGINE_ARGS

BASE_ENGINE_ARGS = {"model": "Qwen/Qwen3-8B", "max_model_len": 32768, "enable_prefix_caching": True}

llm = LLM(**(BASE_ENGINE_ARGS | REPLAY_ENGINE_ARGS))

# Thinking mode: Temperature=0.6, TopP=0.95, TopK=20, MinP=0
sampling_params = SamplingParams(temperature=0.6, top_p=0.95, top_k=20, min_p=0, max_tokens=32768)

messages = [{"role": "user", "content": "Give me a short introduction to large language models."}]
outputs = llm.chat(messages, sampling_params, chat_template_kwargs={"enable_thinking": True})
print(outputs[0].outputs[0].text)
