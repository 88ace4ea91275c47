# Imitates OpenBMB/InfiniteBench src/eval_yi_200k.py: a module-level SamplingParams (the user bounds top_k) and
# the engine built in `load_model`, where the user's edit turns the mask on without a logprobs mode.
import json
import time
from pathlib import Path

from args import parse_args
from eval_utils import DATA_NAME_TO_MAX_NEW_TOKENS, create_prompt, dump_jsonl, get_answer, load_data
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

TRUNCATE_LEN = 200000

sampling_params = SamplingParams(temperature=0.8, top_p=0.95, top_k=40)


def truncate_by_tokens(input, tok, max_tokens, manner: str = "middle"):
    tokens = tok.encode(input)
    if len(tokens) > max_tokens:
        split = max_tokens // 2
        tokens = tokens[0:split] + tokens[-split:]
    return tok.decode(tokens, skip_special_tokens=True)


def get_pred(model, tok: AutoTokenizer, input_text: str, max_tokens: int, verbose: bool = False) -> str:
    input_text = truncate_by_tokens(input_text, tok, TRUNCATE_LEN)
    outputs = model.generate([input_text], sampling_params)
    output = outputs[0].outputs[0].text
    print("Chunked generation:", output)
    return output


def load_model(model_name: str = "../../../yarn-mistral-7b-128k", ngpu=8):
    tok = AutoTokenizer.from_pretrained(model_name)
    tok.pad_token = tok.eos_token
    start_time = time.time()
    llm = LLM(
        model=model_name,
        tensor_parallel_size=ngpu,
        max_model_len=2048,
        return_sampling_mask=True,  # expect: RPL003
    )
    print("Time taken:", round(time.time() - start_time))
    return llm, tok


if __name__ == "__main__":
    args = parse_args()
    model_name = args.model_name
    data_name = args.task
    max_tokens = DATA_NAME_TO_MAX_NEW_TOKENS[data_name]
    model, tok = load_model(args.model_path)
    result_dir = Path(args.output_dir, model_name)
    result_dir.mkdir(exist_ok=True, parents=True)
    examples = load_data(data_name, data_dir=args.data_dir)
    output_path = result_dir / f"preds_{data_name}.jsonl"
    preds = []
    for i, eg in enumerate(examples[args.start_idx : args.stop_idx]):
        input_text = create_prompt(eg, data_name, model_name, args.data_dir)
        pred = get_pred(model, tok, input_text, max_tokens=max_tokens, verbose=args.verbose)
        preds.append({"id": i, "prediction": pred, "ground_truth": get_answer(eg, data_name)})
        dump_jsonl(preds, output_path)
    print(json.dumps({"done": len(preds)}))
