# Imitates meta-llama/llama-cookbook end-to-end-use-cases/coding/text2sql/eval/llama_text2sql_vllm.py, trimmed;
# replay turned on where the LLM is built.
import argparse
import json
import os
import re
import sqlite3

from tqdm import tqdm

from vllm import LLM, SamplingParams

DEFAULT_MAX_TOKENS = 1024
SYSTEM_PROMPT = "You are a text to SQL query translator. Using the SQLite DB Schema and the External Knowledge, translate the following text question into a SQLite SQL select statement."


def inference(llm, sampling_params, user_prompt):
    messages = [
        {"content": SYSTEM_PROMPT, "role": "system"},
        {"role": "user", "content": user_prompt},
    ]
    response = llm.chat(messages, sampling_params, use_tqdm=False)
    response_text = response[0].outputs[0].text
    pattern = re.compile(r"```sql\n*(.*?)```", re.DOTALL)
    matches = pattern.findall(response_text)
    return matches[0] if matches != [] else response_text


def generate_schema_prompt(db_path):
    conn = sqlite3.connect(db_path)
    cursor = conn.cursor()
    cursor.execute("SELECT sql FROM sqlite_master WHERE type='table'")
    return "-- DB Schema: " + "\n\n".join(row[0] for row in cursor.fetchall())


def collect_response_from_llama(llm, sampling_params, db_path_list, question_list, knowledge_list=None):
    response_list = []
    for i, question in tqdm(enumerate(question_list)):
        cur_prompt = generate_schema_prompt(db_path_list[i]) + "\n\n-- Question: {}".format(question)
        if knowledge_list:
            cur_prompt += "\n-- External Knowledge: {}".format(knowledge_list[i])
        sql = inference(llm, sampling_params, cur_prompt)
        db_id = db_path_list[i].split("/")[-1].split(".sqlite")[0]
        response_list.append(sql + "\t----- bird -----\t" + db_id)
    return response_list


def decouple_question_schema(datasets, db_root_path):
    question_list = []
    db_path_list = []
    knowledge_list = []
    for data in datasets:
        question_list.append(data["question"])
        db_path_list.append(db_root_path + data["db_id"] + "/" + data["db_id"] + ".sqlite")
        knowledge_list.append(data["evidence"])
    return question_list, db_path_list, knowledge_list


if __name__ == "__main__":
    args_parser = argparse.ArgumentParser()
    args_parser.add_argument("--eval_path", type=str, default="")
    args_parser.add_argument("--mode", type=str, default="dev")
    args_parser.add_argument("--use_knowledge", type=str, default="True")
    args_parser.add_argument("--db_root_path", type=str, default="")
    args_parser.add_argument("--model", type=str, default="meta-llama/Llama-3.1-8B-Instruct")
    args_parser.add_argument("--data_output_path", type=str)
    args_parser.add_argument("--max_tokens", type=int, default=DEFAULT_MAX_TOKENS)
    args_parser.add_argument("--temperature", type=float, default=0.6)
    args_parser.add_argument("--top_k", type=int, default=50)
    args_parser.add_argument("--top_p", type=float, default=0.1)
    args = args_parser.parse_args()

    eval_data = json.load(open(args.eval_path, "r"))

    question_list, db_path_list, knowledge_list = decouple_question_schema(
        datasets=eval_data, db_root_path=args.db_root_path
    )

    llm = LLM(
        model=args.model,
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling_params = llm.get_default_sampling_params()
    sampling_params.max_tokens = args.max_tokens
    sampling_params.temperature = args.temperature
    sampling_params.top_p = args.top_p
    sampling_params.top_k = args.top_k

    if args.use_knowledge == "True":
        responses = collect_response_from_llama(
            llm=llm,
            sampling_params=sampling_params,
            db_path_list=db_path_list,
            question_list=question_list,
            knowledge_list=knowledge_list,
        )
    else:
        responses = collect_response_from_llama(
            llm=llm,
            sampling_params=sampling_params,
            db_path_list=db_path_list,
            question_list=question_list,
            knowledge_list=None,
        )

    output_name = args.data_output_path + "predict_" + args.mode + ".json"
    os.makedirs(os.path.dirname(output_name), exist_ok=True)
    json.dump(dict(enumerate(responses)), open(output_name, "w"), indent=4)
