# Imitates thunlp/LLaVA-UHD VLMEvalKit/vlmeval/vlm/qwen2_vl/model.py (Qwen2VLChat: kwargs.get('use_vllm'),
# LLM(...) in __init__, generate_inner_vllm's greedy SamplingParams); the user's edit forwards replay
# options from the model's registry entry.
import logging


class Qwen2VLChat:
    def __init__(self, model_path, max_new_tokens=2048, **kwargs):
        self.model_path = model_path
        self.max_new_tokens = max_new_tokens
        self.use_vllm = kwargs.get("use_vllm", False)
        if self.use_vllm:
            from vllm import LLM

            logging.info(f"Using vLLM for {self.model_path} inference")
            self.llm = LLM(
                model=self.model_path,
                max_num_seqs=5,
                max_model_len=2048,
                tensor_parallel_size=1,
                gpu_memory_utilization=0.9,
                return_sampling_mask=kwargs.get("return_sampling_mask", False),
                logprobs_mode=kwargs.get("logprobs_mode", "raw_logprobs"),
            )

    def generate_inner_vllm(self, message, dataset=None):
        from vllm import SamplingParams

        sampling_params = SamplingParams(
            temperature=0.0, max_tokens=self.max_new_tokens, top_k=1, stop_token_ids=None  # expect: RPL101
        )
        outputs = self.llm.generate({"prompt": message}, sampling_params=sampling_params)
        return outputs[0].outputs[0].text

    def generate(self, message, dataset=None):
        if self.use_vllm:
            return self.generate_inner_vllm(message, dataset=dataset)
        raise NotImplementedError
