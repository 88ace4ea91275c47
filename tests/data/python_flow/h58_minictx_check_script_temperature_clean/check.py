# Imitates cmu-l3/minictx-eval check.py (vllm.LLM built by _load_model, vllm.SamplingParams by generate_vllm, argparse in __main__)
import json
import heapq
import os

import transformers
import vllm

from repl_wrapper import InteractiveThread

os.environ["TOKENIZERS_PARALLELISM"] = "true"


def _load_data(dataset_name, dataset_path):
    data = []
    with open(dataset_path) as f:
        for line in f.readlines():
            data.append(json.loads(line))
    if "valid" in dataset_name:
        data = [x for x in data if x["split"] == "valid"]
    return data


def generate_vllm(prompt, model, tokenizer, temperature, num_samples, max_tokens=256, stop=["\ntheorem", "\n\n\n", "---", "[/TAC]"]):
    texts, scores = [], []
    params = vllm.SamplingParams(
        n=num_samples,
        temperature=temperature,
        top_k=20,
        max_tokens=max_tokens,
        stop=stop,
    )
    outputs = model.generate([prompt], params, use_tqdm=False)
    if len(outputs) == 0:
        return [], []
    for output in outputs[0].outputs:
        text = output.text.replace(tokenizer.eos_token, "")
        score = output.cumulative_logprob / max(len(output.token_ids), 1)
        texts.append(text)
        scores.append(score)
    return texts, scores


def _prompt_fewshot(theorem_statement, state=None, tactics=None, task="full_proof"):
    with open(f"prompt/{task}.txt", "r") as infile:
        prompt = infile.read()
    if task == "full_proof":
        return prompt + theorem_statement + " := by"
    return prompt.format(state)


def _load_model(model_name, tp_degree):
    model = vllm.LLM(
        model=model_name,
        tensor_parallel_size=tp_degree,
        dtype="bfloat16",
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    tokenizer = transformers.AutoTokenizer.from_pretrained(model_name)
    return model, tokenizer


def best_first_search(example, task, thread_id, repl_path, lean_env_path, model, tokenizer, prompt_fn, temperature, num_samples, max_tokens=64, max_iters=250):
    theorem_statement = example["theoremStatement"] + " := by"
    thread = InteractiveThread(thread_id, repl_path, lean_env_path, initial_context=example["srcContext"], timeout=600)
    thread.start()
    output = thread.submit_and_receive({"cmd": theorem_statement + " sorry", "env": 0})
    proof_state = output["sorries"][-1]["proofState"]
    queue = [(0.0, [], output["sorries"][-1]["goal"], proof_state)]
    for iteration in range(max_iters):
        if len(queue) == 0:
            break
        score, tactics, goal, proof_state = heapq.heappop(queue)
        prompt = prompt_fn(theorem_statement, goal, tactics, task)
        tactic_cands, tactic_scores = generate_vllm(prompt, model, tokenizer, temperature, num_samples, max_tokens)
        for next_tactic, tactic_score in zip(tactic_cands, tactic_scores):
            out = thread.submit_and_receive({"tactic": next_tactic, "proofState": proof_state})
            if out.get("goals") == []:
                thread.stop()
                return {"success": True, "proof": tactics + [next_tactic]}
            if "proofState" in out:
                heapq.heappush(queue, (score - tactic_score, tactics + [next_tactic], out["goals"][0], out["proofState"]))
    thread.stop()
    return {"success": False, "msg": "Search ended"}


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--model-name", required=True)
    parser.add_argument(
        "--task",
        default="tactic_prediction",
        choices=["tactic_prediction", "full_proof", "state_prediction"],
    )
    parser.add_argument("--dataset-name", default="minif2f-test")
    parser.add_argument("--dataset-path", default="data/minif2f.jsonl")
    parser.add_argument("--tp-degree", type=int, default=1)
    parser.add_argument("--max-iters", type=int, default=100)
    parser.add_argument("--num-samples", type=int, default=32)
    parser.add_argument("--temperatures", type=float, default=0.0)
    parser.add_argument("--repl-path", default="./repl")
    parser.add_argument("--lean-env-path", default="./miniF2F-lean4")

    args = parser.parse_args()

    model, tokenizer = _load_model(args.model_name, args.tp_degree)
    evaluation = best_first_search

    examples = _load_data(args.dataset_name, args.dataset_path)
    successes = 0
    for example in examples:
        out = evaluation(example, args.task, 1, args.repl_path, args.lean_env_path, model, tokenizer, _prompt_fewshot, args.temperatures, args.num_samples, max_iters=args.max_iters)
        if out["success"]:
            successes += 1
    print(f"Successes: {successes}/{len(examples)}")
