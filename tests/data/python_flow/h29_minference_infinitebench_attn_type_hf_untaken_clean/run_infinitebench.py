# Imitates microsoft/MInference experiments/infinite_bench/run_infinitebench.py: `load_model` builds a vLLM
# engine only when "vllm" is in `--attn_type` (default "hf"); the user's replay edit and the greedy vLLM
# request sit on that branch, which the program as written does not take.
import json
from pathlib import Path

import torch
from args import parse_args
from minference import MInference
from transformers import AutoModelForCausalLM, AutoTokenizer, GenerationConfig
from vllm import LLM, SamplingParams

DATA_NAME_TO_MAX_NEW_TOKENS = {"kv_retrieval": 50, "passkey": 6, "number_string": 12, "math_find": 3}


def load_data(data_name, data_dir):
    with open(Path(data_dir, f"{data_name}.jsonl")) as f:
        return [json.loads(line) for line in f]


def get_pred(model, tok, input_text, max_input_length, generation_config=None, attn_type: str = "vllm"):
    input_tokens = tok.encode(input_text)[-max_input_length:]
    if "vllm" in attn_type:
        outputs = model.generate({"prompt_token_ids": input_tokens}, sampling_params=generation_config)
        return outputs[0].outputs[0].text.strip()
    input_tensors = {"input_ids": torch.tensor(input_tokens).unsqueeze(0).to(model.device)}
    outputs = model.generate(**input_tensors, generation_config=generation_config)
    return tok.decode(outputs[0, len(input_tokens) :], skip_special_tokens=True).strip()


def load_model(
    model_name: str,
    topk: int = -1,
    starting_layer: int = -1,
    topk_dims_file_path: str = "",
    attn_type: str = "vllm",
    max_seq_length: int = None,
    kv_type: str = "",
    trust_remote_code: bool = False,
    tensor_parallel_size: int = 1,
):
    tok = AutoTokenizer.from_pretrained(model_name, trust_remote_code=trust_remote_code)
    tok.pad_token = tok.eos_token

    minference_patch = MInference(
        attn_type,
        model_name,
        config_path=topk_dims_file_path,
        starting_layer=starting_layer,
        kv_type=kv_type,
    )

    if "vllm" in attn_type:
        llm = LLM(
            model=model_name,
            max_model_len=max_seq_length,
            enable_chunked_prefill=False,
            tensor_parallel_size=tensor_parallel_size,
            trust_remote_code=trust_remote_code,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
    else:
        llm = AutoModelForCausalLM.from_pretrained(
            model_name, torch_dtype="auto", device_map="auto", trust_remote_code=trust_remote_code
        )

    if attn_type not in ["vllm", "hf"]:
        llm = minference_patch(llm)
    return llm, tok


if __name__ == "__main__":
    args = parse_args()
    model_name = args.model_name_or_path
    max_seq_length = args.max_seq_length
    data_name = args.task

    model, tok = load_model(
        model_name,
        args.topk,
        args.starting_layer,
        args.topk_dims_file_path,
        attn_type=args.attn_type,
        max_seq_length=max_seq_length,
        kv_type=args.kv_type,
        trust_remote_code=args.trust_remote_code,
        tensor_parallel_size=args.tensor_parallel_size,
    )

    max_new_tokens = DATA_NAME_TO_MAX_NEW_TOKENS[data_name]
    if "vllm" in args.attn_type:
        generation_config = SamplingParams(
            temperature=0,
            max_tokens=max_new_tokens,
        )
    else:
        generation_config = GenerationConfig(
            max_new_tokens=max_new_tokens,
            num_return_sequences=1,
            do_sample=False,
            pad_token_id=tok.pad_token_id,
        )

    result_dir = Path(args.output_dir, f"{model_name.split('/')[-1]}_{args.attn_type}")
    result_dir.mkdir(exist_ok=True, parents=True)
    examples = load_data(data_name, args.data_dir)
    if args.num_eval_examples != -1:
        examples = examples[: args.num_eval_examples]
    with open(result_dir / f"prediction_{data_name}.jsonl", "w") as f:
        for eg in examples:
            pred = get_pred(model, tok, eg["context"] + eg["input"], max_seq_length - max_new_tokens, generation_config, args.attn_type)
            f.write(json.dumps({"pred": pred, "answer": eg["answer"]}, ensure_ascii=False) + "\n")
