# Imitates allenai/olmes oe_eval/models/eleuther_vllm_causallms.py (VLLM_Verbose: pretrained + model kwargs into vllm.LLM)
from vllm import LLM, SamplingParams


class VLLM_Verbose:
    def __init__(self, pretrained: str, max_length: int = 2048, dtype: str = "auto", **kwargs):
        self.model = LLM(model=pretrained, max_model_len=max_length, dtype=dtype, **kwargs)

    def generate_until(self, contexts, temperature: float = 0.6, top_k: int = 50, max_gen_toks: int = 512):
        params = SamplingParams(temperature=temperature, top_k=top_k, max_tokens=max_gen_toks)
        return [out.outputs[0].text for out in self.model.generate(contexts, params)]
