# Imitates RLHFlow/Self-rewarding-reasoning-LLM infer_math/gen_hf.py (HfArgumentParser ScriptArguments, LLM + SamplingParams)
from dataclasses import dataclass, field
from typing import List, Optional

from datasets import load_dataset
from transformers import AutoTokenizer, HfArgumentParser
from vllm import LLM, SamplingParams


@dataclass
class ScriptArguments:
    """
    the arguments for the self-rewarding generation
    """

    model_name_or_path: Optional[str] = field(
        default="Qwen/Qwen2.5-Math-7B",
        metadata={"help": "the location of the SFT model name or path"},
    )
    dataset_name_or_path: Optional[str] = field(
        default="RLHFlow/self_rewarding_sft_prompt",
        metadata={"help": "the location of the dataset name or path"},
    )
    output_dir: Optional[str] = field(
        default="uf_split0_responses_K8.jsonl",
        metadata={"help": "the location of the output file"},
    )
    local_index: Optional[int] = field(
        default=999,
        metadata={"help": "the local index of the agent"},
    )
    my_world_size: Optional[int] = field(
        default=4,
        metadata={"help": "the total number of the agents"},
    )
    K: Optional[int] = field(
        default=4,
        metadata={"help": "the number of generations per prompt"},
    )
    max_new_tokens: Optional[int] = field(
        default=4096,
        metadata={"help": "the maximum length of the new tokens"},
    )
    temperature: Optional[float] = field(
        default=0.7,
        metadata={"help": "the temperature"},
    )
    top_k: Optional[int] = field(
        default=20,
        metadata={"help": "the top-k bound of the sampling mask"},
    )
    eos_ids: List[int] = field(default_factory=lambda: [], metadata={"help": "the ids of the end of sentence tokens"})


parser = HfArgumentParser(ScriptArguments)
script_args = parser.parse_args_into_dataclasses()[0]

model_path = script_args.model_name_or_path
print("model_path", model_path)

llm = LLM(
    model=model_path,
    tokenizer=model_path,
    dtype="bfloat16",
    load_format="auto",
    seed=42,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
tokenizer = AutoTokenizer.from_pretrained(model_path)

sampling_params = SamplingParams(
    temperature=script_args.temperature,
    top_p=1.0,
    top_k=script_args.top_k,
    max_tokens=script_args.max_new_tokens,
    n=script_args.K,
    stop_token_ids=[tokenizer.eos_token_id] + script_args.eos_ids,
)

ds = load_dataset(script_args.dataset_name_or_path, split="train")
one_num_share = int(len(ds) / script_args.my_world_size)
ds = ds.select(range(script_args.local_index * one_num_share, (script_args.local_index + 1) * one_num_share))
ds = ds.map(lambda x: {"prompt": tokenizer.apply_chat_template(x["prompt_messages"], tokenize=False, add_generation_prompt=True)})

outputs = llm.generate(ds["prompt"], sampling_params=sampling_params, use_tqdm=True)
