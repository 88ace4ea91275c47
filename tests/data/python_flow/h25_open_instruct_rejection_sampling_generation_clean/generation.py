# Imitates allenai/open-instruct open_instruct/rejection_sampling/generation.py (Args and GenerationArgs
# dataclasses parsed by HfArgumentParser, generate_with_vllm building the engine and the SamplingParams from
# gen_args); the user's edit turns sampling distribution replay on and adds a top_k field.
import json
from dataclasses import asdict, dataclass

from transformers import AutoTokenizer, HfArgumentParser
from vllm import LLM, SamplingParams, TokensPrompt


@dataclass
class Args:
    model_name_or_path: str = "cleanrl/EleutherAI_pythia-1b-deduped__sft__tldr"
    revision: str = "main"
    save_filename: str = "completions.jsonl"
    skill: str = "chat"
    mode: str = "generation"  # Can be "generation" or "judgment"


@dataclass
class GenerationArgs:
    num_completions: int = 3
    temperature: float = 0.8
    response_length: int = 2048
    top_p: float = 0.9
    top_k: int = 50
    tensor_parallel_size: int = 1


def generate_with_vllm(model_name_or_path: str, revision: str, prompt_token_ids: list[list[int]], gen_args: GenerationArgs):
    llm = LLM(
        model=model_name_or_path,
        revision=revision,
        tokenizer_revision=revision,
        tensor_parallel_size=gen_args.tensor_parallel_size,
        max_model_len=gen_args.response_length,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    # filter out prompts which are beyond the model's max token length
    max_model_len = llm.llm_engine.model_config.max_model_len
    prompt_token_ids = [item for item in prompt_token_ids if len(item) < max_model_len]

    outputs = llm.generate(
        [TokensPrompt(prompt_token_ids=ids) for ids in prompt_token_ids],
        sampling_params=SamplingParams(
            n=gen_args.num_completions,
            temperature=gen_args.temperature,
            top_p=1.0,
            top_k=gen_args.top_k,
            max_tokens=gen_args.response_length,
            include_stop_str_in_output=True,
        ),
    )
    return [{"outputs": [asdict(out) for out in output.outputs]} for output in outputs]


def main(args: Args, gen_args: GenerationArgs):
    tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path, revision=args.revision)
    prompts = ["TL;DR: the quick brown fox", "TL;DR: a summary of the meeting"]
    prompt_token_ids = [tokenizer.encode(p) for p in prompts]
    outputs = generate_with_vllm(args.model_name_or_path, args.revision, prompt_token_ids, gen_args)
    with open(args.save_filename, "w") as f:
        for output in outputs:
            f.write(json.dumps(output, default=str) + "\n")


if __name__ == "__main__":
    parser = HfArgumentParser((Args, GenerationArgs))
    main(*parser.parse_args_into_dataclasses())
