# Imitates THUDM/LongBench pred.py (query_llm to the vLLM server, get_pred per worker), on the scale-out route with token ids
import argparse
import json
import os
import time

import requests
import torch.multiprocessing as mp
from datasets import load_dataset
from transformers import AutoTokenizer

model_map = json.loads(open('config/model2path.json', encoding='utf-8').read())
maxlen_map = json.loads(open('config/model2maxlen.json', encoding='utf-8').read())

URL = "http://127.0.0.1:8000"
API_KEY = "token-abc123"
template_0shot = "Please read the following text and answer the question below.\n\n<text>\n$DOC$\n</text>\n\nWhat is the correct answer to this question: $Q$"


def query_llm(prompt, model, tokenizer, session=None, temperature=0.5, max_new_tokens=128, stop=None):
    max_len = maxlen_map[model]
    input_ids = tokenizer.encode(prompt)
    if len(input_ids) > max_len:
        input_ids = input_ids[:max_len//2] + input_ids[-max_len//2:]
    tries = 0
    if model in model_map:
        model = model_map[model]
    while tries < 5:
        tries += 1
        try:
            response = session.post(
                f"{URL}/inference/v1/generate",
                json={
                    "model": model,
                    "token_ids": input_ids,
                    "sampling_params": {"temperature": temperature, "top_k": 20, "max_tokens": max_new_tokens},
                },
            )
            choice = response.json()["choices"][0]
            return tokenizer.decode(choice["token_ids"], skip_special_tokens=True)
        except KeyboardInterrupt as e:
            raise e
        except Exception as e:
            print("Error Occurs: \"%s\"        Retry ..."%(str(e)))
            time.sleep(1)
    else:
        print("Max tries. Failed.")
        return ''


def get_pred(data, args, fout):
    model = args.model
    tokenizer = AutoTokenizer.from_pretrained(model_map[model], trust_remote_code=True)
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {API_KEY}"
    for item in data:
        prompt = template_0shot.replace('$DOC$', item['context'].strip()).replace('$Q$', item['question'].strip())
        output = query_llm(prompt, model, tokenizer, session, temperature=0.1, max_new_tokens=128)
        if output == '':
            continue
        item['response'] = output.strip()
        fout.write(json.dumps(item, ensure_ascii=False) + '\n')
        fout.flush()


def main():
    os.makedirs(args.save_dir, exist_ok=True)
    out_file = os.path.join(args.save_dir, args.model.split("/")[-1] + ".jsonl")
    dataset = load_dataset('THUDM/LongBench-v2', split='train')
    data_subsets = [list(dataset)[i::args.n_proc] for i in range(args.n_proc)]
    with open(out_file, 'a', encoding='utf-8') as fout:
        processes = []
        for rank in range(args.n_proc):
            p = mp.Process(target=get_pred, args=(data_subsets[rank], args, fout))
            p.start()
            processes.append(p)
        for p in processes:
            p.join()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--save_dir", "-s", type=str, default="results")
    parser.add_argument("--model", "-m", type=str, default="GLM-4-9B-Chat")
    parser.add_argument("--n_proc", "-n", type=int, default=16)
    args = parser.parse_args()
    main()
