# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py (self.model_args in __init__, _model_generate's scoring params)
from vllm import LLM, SamplingParams


class VLLM:
    def __init__(
        self,
        pretrained: str,
        dtype: str = "auto",
        revision: str | None = None,
        trust_remote_code: bool | None = False,
        tensor_parallel_size: int = 1,
        max_model_len: int | None = None,
        seed: int = 1234,
        gpu_memory_utilization: float = 0.9,
        **kwargs,
    ):
        self.model_args = {
            "model": pretrained,
            "gpu_memory_utilization": float(gpu_memory_utilization),
            "revision": revision,
            "dtype": dtype,
            "trust_remote_code": trust_remote_code,
            "tensor_parallel_size": int(tensor_parallel_size),
            "max_model_len": int(max_model_len) if max_model_len else None,
            "seed": int(seed),
        }
        self.model_args.update(kwargs)
        self.model = LLM(**self.model_args)

    def _model_generate(self, requests: list[list[int]], generate: bool = False, max_tokens: int | None = None, stop=None):
        if generate:
            sampling_params = SamplingParams(temperature=1.0, top_k=20, max_tokens=max_tokens, stop=stop)
        else:
            # replay needs top_k > 0; top_k=1 keeps the scoring pass greedy anyway
            sampling_params = SamplingParams(
                temperature=0,  # expect: RPL101
                top_k=1,
                prompt_logprobs=1,
                max_tokens=1,
                detokenize=False,
            )
        prompts = [{"prompt_token_ids": ids} for ids in requests]
        return self.model.generate(prompts, sampling_params=sampling_params, use_tqdm=False)

    def loglikelihood_rolling(self, requests: list[list[int]]) -> list[float]:
        outputs = self._model_generate(requests, generate=False)
        return [sum(next(iter(lp.values())).logprob for lp in out.prompt_logprobs[1:]) for out in outputs]


if __name__ == "__main__":
    lm = VLLM(
        "Qwen/Qwen2.5-1.5B-Instruct",
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    print(lm.loglikelihood_rolling([[151644, 872, 198, 9707, 0]]))
