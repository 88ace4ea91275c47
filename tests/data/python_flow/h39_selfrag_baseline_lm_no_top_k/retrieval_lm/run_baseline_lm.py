# Imitates AkariAsai/self-rag retrieval_lm/run_baseline_lm.py (the vLLM baseline: argparse, two LLM(...) calls on
# --dtype, call_model's SamplingParams), with replay turned on in both LLM(...) calls.
import argparse
import numpy as np
from tqdm import tqdm
from vllm import LLM, SamplingParams
from utils import load_file, TASK_INST, PROMPT_DICT, save_file_jsonl, postprocess_answers_closed
from metrics import metric_max_over_ground_truths, exact_match_score, match


def call_model(prompts, model, max_new_tokens=50):
    sampling_params = SamplingParams(  # expect: RPL102
        temperature=0.8, top_p=0.95, max_tokens=max_new_tokens)
    preds = model.generate(prompts, sampling_params)
    preds = [pred.outputs[0].text.split("\n\n")[0] for pred in preds]
    postprocessed_preds = [postprocess_output(pred) for pred in preds]
    return postprocessed_preds, preds


def postprocess_output(pred):
    pred = pred.replace("</s>", "")

    if len(pred) > 0 and pred[0] == " ":
        pred = pred[1:]
    return pred


def main():

    parser = argparse.ArgumentParser()
    parser.add_argument('--model_name', type=str,
                        default="meta-llama/Llama-2-7b-chat-hf")
    parser.add_argument('--input_file', type=str, required=True)
    parser.add_argument('--mode', type=str, default="vanilla")
    parser.add_argument('--max_new_tokens', type=int, default=15)
    parser.add_argument('--metric', type=str)
    parser.add_argument('--result_fp', type=str)
    parser.add_argument('--task', type=str)
    parser.add_argument('--prompt_name', type=str, default="prompt_no_input")
    parser.add_argument('--batch_size', type=int, default=5)
    parser.add_argument("--dtype",  type=str, default=None,
                        help="world size to use multiple GPUs.")
    parser.add_argument("--world_size",  type=int, default=1,
                        help="world size to use multiple GPUs.")
    parser.add_argument("--choices",  type=str, default=None,
                        help="space-separated answer candidates")
    parser.add_argument('--download_dir', type=str, help="specify download dir",
                        default=".cache")
    args = parser.parse_args()

    if args.dtype is not None:
        model = LLM(model=args.model_name, download_dir=args.download_dir, dtype=args.dtype,
                    tensor_parallel_size=args.world_size, max_model_len=2048,
                    return_sampling_mask=True, logprobs_mode="processed_logprobs")
    else:
        model = LLM(model=args.model_name, download_dir=args.download_dir,
                    tensor_parallel_size=args.world_size, max_model_len=2048,
                    return_sampling_mask=True, logprobs_mode="processed_logprobs")

    input_data = load_file(args.input_file)
    for item in input_data:
        if "instruction" not in item and "question" in item:
            item["instruction"] = item["question"]
        if args.task == "fever" or args.task == "arc_c":
            item["instruction"] = TASK_INST[args.task] + \
                "\n\n### Input:\n" + item["instruction"]

    final_results = []
    for idx in tqdm(range(len(input_data) // args.batch_size)):
        batch = input_data[idx*args.batch_size:(idx+1)*args.batch_size]
        processed_batch = [
            PROMPT_DICT[args.prompt_name].format_map(item) for item in batch]
        preds, _ = call_model(
            processed_batch, model=model, max_new_tokens=args.max_new_tokens)
        for j, item in enumerate(batch):
            pred = preds[j]
            item["output"] = postprocess_answers_closed(
                pred, args.task, args.choices)
            final_results.append(item)

    for item in input_data:
        if args.metric == "em":
            metric_result = metric_max_over_ground_truths(
                exact_match_score, item["output"], item["golds"])
        elif args.metric == "match":
            metric_result = match(item["output"], item["golds"])
        else:
            raise NotImplementedError
        item["metric_result"] = metric_result

    print("overall result: {0}".format(
        np.mean([item["metric_result"] for item in input_data])))
    save_file_jsonl(input_data, args.result_fp)


if __name__ == "__main__":
    main()
