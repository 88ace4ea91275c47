# Imitates bigcode-project/bigcodebench bigcodebench/provider/base.py (DecoderBase)
from abc import ABC, abstractmethod


class DecoderBase(ABC):
    def __init__(
        self,
        name: str,
        subset: str,
        split: str,
        temperature: float = 0.8,
        max_new_tokens: int = 1280,
        revision: str = None,
        dtype: str = "bfloat16",
        tp: int = 1,
        trust_remote_code: bool = False,
    ) -> None:
        self.name = name
        self.subset = subset
        self.split = split
        self.temperature = temperature
        self.max_new_tokens = max_new_tokens
        self.revision = revision
        self.dtype = dtype
        self.tp = tp
        self.trust_remote_code = trust_remote_code
        self.eos = ["<|endoftext|>", "<|endofmask|>", "</s>", "\nif __name__", "\ndef main(", "\nprint("]

    @abstractmethod
    def codegen(self, prompts, do_sample: bool = True, num_samples: int = 200):
        pass
