# Imitates camel-ai/camel examples/models/vllm_model_example.py (token-in route of the scale-out server)
from camel.configs.vllm_config import VLLMConfig
from camel.models.vllm_model import VLLMModel

config = VLLMConfig(temperature=0.7, top_p=0.9, max_tokens=256).as_dict()
model = VLLMModel("Qwen/Qwen2.5-1.5B-Instruct", model_config_dict=config)
print(model.run([151644, 872, 198, 13048, 151645]))
