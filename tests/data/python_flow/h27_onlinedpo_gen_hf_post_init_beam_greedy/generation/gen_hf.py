#!/usr/bin/env python
# Imitates RLHFlow/Online-DPO-R1 generation/gen_hf.py (HfArgumentParser(ScriptArguments) ->
# LLM(...) + SamplingParams(temperature=script_args.temperature, ...)); the user's edit turns replay on
# and adds a __post_init__ that makes "beam search" runs greedy.
from dataclasses import dataclass, field
from typing import Optional

from transformers import HfArgumentParser
from vllm import LLM, SamplingParams


@dataclass
class ScriptArguments:
    model_name_or_path: Optional[str] = field(default="RLHFlow/Qwen2.5-7B-SFT")
    K: Optional[int] = field(default=8, metadata={"help": "the number of generations per prompt"})
    max_new_tokens: Optional[int] = field(default=4096)
    temperature: Optional[float] = field(default=0.7, metadata={"help": "the temperature"})
    top_k: Optional[int] = field(default=40)
    use_beam_search: Optional[bool] = field(default=True, metadata={"help": "the beam search"})

    def __post_init__(self):
        if self.use_beam_search:
            self.temperature = 0.0  # expect: RPL101
            self.K = 1


parser = HfArgumentParser(ScriptArguments)
script_args = parser.parse_args_into_dataclasses()[0]

llm = LLM(
    model=script_args.model_name_or_path,
    tokenizer=script_args.model_name_or_path,
    dtype="bfloat16",
    load_format="auto",
    seed=42,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
sampling_params = SamplingParams(
    temperature=script_args.temperature,
    top_p=1.0,
    top_k=script_args.top_k,
    max_tokens=script_args.max_new_tokens,
    n=script_args.K,
)
outputs = llm.generate(["What is 1 + 1?"], sampling_params)
print(outputs[0].outputs[0].text)
