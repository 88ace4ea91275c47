# Imitates PKU-Alignment/align-anything align_anything/evaluation/inference/vllm_inference.py (BaseInferencer_vllm.init_model)
from vllm import LLM, SamplingParams


class BaseInferencer_vllm:
    def __init__(self, model_cfgs, vllm_cfgs, **kwargs):
        self.vllm_cfgs_sp, self.vllm_cfgs_llm = vllm_cfgs.SamplingParams, vllm_cfgs.LLM
        self.model_cfgs = model_cfgs
        self.sp_n = self.vllm_cfgs_sp.n
        self.sp_top_k = self.vllm_cfgs_sp.top_k
        self.sp_top_p = self.vllm_cfgs_sp.top_p
        self.sp_temperature = self.vllm_cfgs_sp.temperature
        self.sp_max_tokens = self.vllm_cfgs_sp.max_tokens
        self.sp_prompt_logprobs = self.vllm_cfgs_sp.prompt_logprobs
        self.sp_logprobs = self.vllm_cfgs_sp.logprobs
        self.sp_frequency_penalty = self.vllm_cfgs_sp.frequency_penalty

        self.llm_tokenizer_mode = self.vllm_cfgs_llm.tokenizer_mode
        self.llm_trust_remote_code = self.vllm_cfgs_llm.trust_remote_code
        self.llm_gpu_memory_utilization = self.vllm_cfgs_llm.gpu_memory_utilization
        self.llm_tensor_parallel_size = self.vllm_cfgs_llm.tensor_parallel_size
        self.llm_return_sampling_mask = self.vllm_cfgs_llm.return_sampling_mask
        self.llm_logprobs_mode = self.vllm_cfgs_llm.logprobs_mode

        self.model_id = self.model_cfgs.model_id
        self.model_name_or_path = self.model_cfgs.model_name_or_path
        self.llm_max_model_len = self.model_cfgs.model_max_length
        self.init_model()

    def init_model(self) -> None:
        self.samplingparams = SamplingParams(
            n=self.sp_n,
            top_k=self.sp_top_k,
            top_p=self.sp_top_p,
            temperature=self.sp_temperature,
            max_tokens=self.sp_max_tokens,
            frequency_penalty=self.sp_frequency_penalty,
            prompt_logprobs=self.sp_prompt_logprobs,
            logprobs=self.sp_logprobs,
        )
        self.model = LLM(
            model=self.model_name_or_path,
            tokenizer_mode=self.llm_tokenizer_mode,
            trust_remote_code=self.llm_trust_remote_code,
            tensor_parallel_size=self.llm_tensor_parallel_size,
            gpu_memory_utilization=self.llm_gpu_memory_utilization,
            max_model_len=self.llm_max_model_len,
            return_sampling_mask=self.llm_return_sampling_mask,
            logprobs_mode=self.llm_logprobs_mode,
        )

    def generation(self, prompts):
        outputs = self.model.generate(prompts=prompts, sampling_params=self.samplingparams)
        return [output.outputs[0].text for output in outputs]
