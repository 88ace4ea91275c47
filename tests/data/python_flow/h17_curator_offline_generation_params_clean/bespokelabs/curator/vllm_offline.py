# Imitates bespokelabsai/curator src/bespokelabs/curator/request_processor/offline/vllm_offline_request_processor.py
import vllm


class VLLMOfflineRequestProcessor:
    def __init__(self, config):
        self.model = config.model
        self.max_model_length = config.max_model_length
        self.enforce_eager = config.enforce_eager
        self.tensor_parallel_size = config.tensor_parallel_size
        self.gpu_memory_utilization = config.gpu_memory_utilization
        self.max_tokens = config.max_tokens
        self.batch_size = config.batch_size
        self.generation_params = config.generation_params

    def load_offline_model(self):
        self.model_class = vllm.LLM(
            self.model,
            trust_remote_code=True,
            max_model_len=self.max_model_length,
            enforce_eager=self.enforce_eager,
            tensor_parallel_size=self.tensor_parallel_size,
            max_num_seqs=self.batch_size,
            gpu_memory_utilization=self.gpu_memory_utilization,
            disable_custom_all_reduce=self.tensor_parallel_size > 1,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )

    def process_requests(self, prompts):
        sampling_params = vllm.SamplingParams(
            temperature=self.generation_params.get("temperature", 0.7),
            top_p=self.generation_params.get("top_p", 0.95),
            top_k=self.generation_params.get("top_k", 50),
            max_tokens=self.max_tokens,
        )
        return self.model_class.generate(prompts, sampling_params)
