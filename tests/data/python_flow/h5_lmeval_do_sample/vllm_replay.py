# Imitates EleutherAI/lm-evaluation-harness/lm_eval/models/vllm_causallms.py (modify_gen_kwargs turns do_sample=False into temperature 0)
from vllm import LLM, SamplingParams


class VLLMReplay:
    def __init__(self, pretrained: str, **model_kwargs):
        self.model_args = {
            "model": pretrained,
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
            **model_kwargs,
        }
        self.model = LLM(**self.model_args)

    @staticmethod
    def modify_gen_kwargs(kwargs: dict) -> dict:
        do_sample = kwargs.pop("do_sample", None)
        if do_sample is False and "temperature" not in kwargs:
            kwargs["temperature"] = 0.0  # expect: RPL101
        kwargs["skip_special_tokens"] = kwargs.get("skip_special_tokens", False)
        kwargs["spaces_between_special_tokens"] = kwargs.get("spaces_between_special_tokens", False)
        return kwargs

    def generate_until(self, prompts: list[str], gen_kwargs: dict) -> list[str]:
        kwargs = self.modify_gen_kwargs(dict(gen_kwargs))
        until = kwargs.pop("until", [])
        max_gen_toks = kwargs.pop("max_gen_toks", 256)
        params = SamplingParams(max_tokens=max_gen_toks, stop=until, **kwargs)
        outputs = self.model.generate(prompts, sampling_params=params, use_tqdm=False)
        return [output.outputs[0].text for output in outputs]


lm = VLLMReplay("Qwen/Qwen2.5-7B", max_model_len=4096)
print(lm.generate_until(["Q: What is 2 + 2?\nA:"], {"until": ["\n"], "do_sample": False, "top_k": 20}))
