# Imitates OpenBMB/InfiniteBench src/eval_chatglm.py: the module-level SamplingParams (the user bounds top_k
# for replay) and `LLM(model=..., trust_remote_code=True)` with the replay edit; the old line stays commented out.
import json
from pathlib import Path

from args import parse_args
from eval_utils import DATA_NAME_TO_MAX_NEW_TOKENS, create_prompt, dump_jsonl, get_answer, load_data
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

TRUNCATE_LEN = 128000

sampling_params = SamplingParams(temperature=0.8, top_p=0.95, top_k=50)


def truncate_by_tokens(input, tok, max_tokens, manner: str = "middle"):
    tokens = tok.encode(input)
    if len(tokens) > max_tokens:
        split = max_tokens // 2
        tokens = tokens[0:split] + tokens[-split:]
    return tok.decode(tokens, skip_special_tokens=True)


def get_pred(model, tok: AutoTokenizer, input_text: str, max_tokens: int, verbose: bool = False) -> str:
    input_text = truncate_by_tokens(input_text, tok, TRUNCATE_LEN)
    outputs = model.generate([input_text], sampling_params)
    return outputs[0].outputs[0].text


def load_model(model_name: str = "THUDM/chatglm3-6b-128k"):
    tok = AutoTokenizer.from_pretrained(model_name, trust_remote_code=True)
    llm = LLM(
        model=model_name,
        trust_remote_code=True,
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )  # , tensor_parallel_size=ngpu)
    return llm, tok


if __name__ == "__main__":
    args = parse_args()
    data_name = args.task
    max_tokens = DATA_NAME_TO_MAX_NEW_TOKENS[data_name]
    model, tok = load_model(args.model_path)
    # sampling_params = SamplingParams(temperature=0.8, top_p=0.95)
    result_dir = Path(args.output_dir, args.model_name)
    result_dir.mkdir(exist_ok=True, parents=True)
    examples = load_data(data_name, data_dir=args.data_dir)
    preds = []
    for i, eg in enumerate(examples[args.start_idx : args.stop_idx]):
        pred = get_pred(model, tok, create_prompt(eg, data_name, "chatglm3", args.data_dir), max_tokens=max_tokens)
        preds.append({"id": i, "prediction": pred, "ground_truth": get_answer(eg, data_name)})
    dump_jsonl(preds, result_dir / f"preds_{data_name}.jsonl")
    print(json.dumps({"done": len(preds)}))
