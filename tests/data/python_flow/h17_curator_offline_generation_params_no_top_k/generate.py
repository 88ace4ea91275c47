# Imitates bespokelabsai/curator examples/vllm-offline (backend="vllm", backend_params=...)
from bespokelabs.curator.config import OfflineRequestProcessorConfig
from bespokelabs.curator.vllm_offline import VLLMOfflineRequestProcessor

backend_params = {
    "tensor_parallel_size": 1,
    "gpu_memory_utilization": 0.7,
    "max_model_length": 4096,
}
config = OfflineRequestProcessorConfig(
    model="Qwen/Qwen2.5-3B-Instruct",
    generation_params={"temperature": 0.8, "top_p": 0.9},
    **backend_params,
)
processor = VLLMOfflineRequestProcessor(config)
processor.load_offline_model()
processor.process_requests(["Write a haiku about recipes."])
