# Imitates LiveCodeBench/LiveCodeBench lcb_runner/runner/vllm_runner.py: the runner builds its LLM
# and one SamplingParams for every batch from the argparse namespace it is given.
try:
    from vllm import LLM, SamplingParams
except ImportError:
    pass


class VLLMRunner:
    def __init__(self, args, model_name):
        self.args = args
        model_tokenizer_path = model_name if args.local_model_path is None else args.local_model_path
        self.llm = LLM(
            model=model_tokenizer_path,
            tokenizer=model_tokenizer_path,
            tensor_parallel_size=args.tensor_parallel_size,
            dtype=args.dtype,
            enforce_eager=True,
            disable_custom_all_reduce=True,
            enable_prefix_caching=args.enable_prefix_caching,
            trust_remote_code=args.trust_remote_code,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self.sampling_params = SamplingParams(
            n=self.args.n,
            max_tokens=self.args.max_tokens,
            temperature=self.args.temperature,
            top_p=self.args.top_p,
            top_k=self.args.top_k,
            frequency_penalty=0,
            presence_penalty=0,
            stop=self.args.stop,
        )

    def run_batch(self, prompts: list[str]) -> list[list[str]]:
        vllm_outputs = self.llm.generate(prompts, self.sampling_params)
        return [[o.text for o in vllm_output.outputs] for vllm_output in vllm_outputs]
