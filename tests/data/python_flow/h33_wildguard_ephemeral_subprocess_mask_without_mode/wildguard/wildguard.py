# Imitates allenai/wildguard wildguard/wildguard.py, wildguard/utils.py (load_wildguard, WildGuardVLLM, inference_with_vllm)
import re

from vllm import LLM

from . import SafetyClassifierBase
from .utils import subprocess_inference_with_vllm, inference_with_vllm, WILDGUARD_INPUT_FORMAT


def load_wildguard(
        use_vllm: bool = True,
        device: str = 'cuda',
        ephemeral_model: bool = True,
) -> 'WildGuardVLLM':
    if use_vllm:
        return WildGuardVLLM(ephemeral_model=ephemeral_model)
    raise NotImplementedError("the HuggingFace classifier is left out of this case")


class WildGuardVLLM(SafetyClassifierBase):
    def __init__(
            self,
            batch_size: int = -1,
            ephemeral_model: bool = True
    ):
        super().__init__(batch_size)
        if ephemeral_model:
            self.model = None
        else:
            self.model = LLM(model="allenai/wildguard", max_model_len=2048)

    def build_input_prompts(self, batch: list[dict[str, str]]) -> list[str]:
        return [
            WILDGUARD_INPUT_FORMAT.format(prompt=item["prompt"], response=item.get("response", ""))
            for item in batch
        ]

    def parse_model_generation_to_output(self, output: str):
        m = re.match(".*:(.*)\n.*:(.*)\n.*:(.*)", output)
        return None if m is None else m.groups()

    def _classify_batch(self, batch: list[dict[str, str]]):
        formatted_prompts = self.build_input_prompts(batch)
        if self.model is None:
            decoded_outputs = subprocess_inference_with_vllm(
                prompts=formatted_prompts,
                model_name_or_path="allenai/wildguard",
                max_tokens=128,
                temperature=0.7,
                top_p=1.0,
                top_k=20,
                use_tqdm=True
            )
        else:
            decoded_outputs = inference_with_vllm(
                prompts=formatted_prompts,
                model=self.model,
                max_tokens=128,
                temperature=0.7,
                top_p=1.0,
                top_k=20,
                use_tqdm=True
            )
        return [self.parse_model_generation_to_output(output) for output in decoded_outputs]
