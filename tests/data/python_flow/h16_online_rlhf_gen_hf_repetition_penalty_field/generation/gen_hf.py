# Imitates RLHFlow/Online-RLHF generation/gen_hf.py (ScriptArguments + HfArgumentParser, LLM, SamplingParams).
from dataclasses import dataclass, field
from typing import Optional

from transformers import HfArgumentParser
from vllm import LLM, SamplingParams


@dataclass
class ScriptArguments:
    model_name_or_path: Optional[str] = field(
        default="RLHFlow/LLaMA3-SFT",
        metadata={"help": "the location of the SFT model name or path"},
    )
    K: Optional[int] = field(default=8, metadata={"help": "the number of generations per prompt"})
    max_input_length: Optional[int] = field(default=4096)
    max_new_tokens: Optional[int] = field(default=2048)
    seed: Optional[int] = field(default=42)
    temperature: Optional[float] = field(default=0.7)
    top_k: Optional[int] = field(default=40)
    repetition_penalty: Optional[float] = field(default=1.05)  # expect: RPL302
    use_beam_search: Optional[bool] = field(default=False)


parser = HfArgumentParser(ScriptArguments)
script_args = parser.parse_args_into_dataclasses()[0]
model_path = script_args.model_name_or_path
seed = script_args.seed

llm = LLM(
    model=model_path,
    tokenizer=model_path,
    dtype="bfloat16",
    max_model_len=script_args.max_input_length,
    load_format="auto",
    seed=42,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

sampling_params = SamplingParams(
    temperature=script_args.temperature,
    top_p=1.0,
    top_k=script_args.top_k,
    repetition_penalty=script_args.repetition_penalty,
    max_tokens=script_args.max_new_tokens,
    n=script_args.K,
    stop_token_ids=[128009],
    seed=seed,
)
outputs = llm.generate(["<|begin_of_text|>Hello"], sampling_params=sampling_params, use_tqdm=True)
