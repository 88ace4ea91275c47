# Imitates om-ai-lab/VLM-R1 src/open-r1-multimodal/src/open_r1/grpo_rec.py (GRPOScriptArguments dataclass, HfArgumentParser).
from dataclasses import dataclass, field
from typing import Optional

from transformers import HfArgumentParser

from open_r1.trainer.vllm_grpo_trainer import VLMGRPOTrainer


@dataclass
class GRPOScriptArguments:
    model_name_or_path: str = field(default="Qwen/Qwen2.5-VL-3B-Instruct")
    max_pixels: Optional[int] = field(default=12845056, metadata={"help": "Maximum number of pixels for the image"})
    min_pixels: Optional[int] = field(default=3136, metadata={"help": "Minimum number of pixels for the image"})
    temperature: float = field(default=0.0, metadata={"help": "Rollout temperature (0 for a deterministic eval pass)"})  # expect: RPL101
    top_k: int = field(default=50)
    max_completion_length: int = field(default=1024)


def main(script_args):
    trainer = VLMGRPOTrainer(
        model=script_args.model_name_or_path,
        script_args=script_args,
        max_pixels=script_args.max_pixels,
        min_pixels=script_args.min_pixels,
    )
    trainer.rollout(["<image> find the dog"])


if __name__ == "__main__":
    parser = HfArgumentParser(GRPOScriptArguments)
    (script_args,) = parser.parse_args_into_dataclasses()
    main(script_args)
