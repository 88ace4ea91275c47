# Imitates camel-ai/camel examples/models/vllm_model_example.py
from camel.configs.vllm_config import VLLMConfig
from camel.models.vllm_model import VLLMModel

config = VLLMConfig(temperature=0.7, top_p=0.9, extra_body={"top_k": 20}).as_dict()
model = VLLMModel("Qwen/Qwen2.5-1.5B-Instruct", model_config_dict=config)
print(model.run([{"role": "user", "content": "Say hi to CAMEL AI"}]))
