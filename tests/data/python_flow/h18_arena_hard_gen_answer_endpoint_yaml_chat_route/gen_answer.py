# Imitates lmarena/arena-hard-auto gen_answer.py (endpoint and setting files read by path, one answer per question)
import argparse
import concurrent.futures

from utils import chat_completion_openai, get_endpoint, make_config


def get_answer(question: dict, model: str, endpoint_info: dict, max_tokens: int, temperature: float):
    api_dict = get_endpoint(endpoint_info["endpoints"])
    conv = [{"role": "user", "content": question["turns"][0]["content"]}]
    return chat_completion_openai(
        model=endpoint_info["model"],
        messages=conv,
        temperature=temperature,
        max_tokens=max_tokens,
        api_dict=api_dict,
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--setting-file", type=str, default="config/gen_answer_config.yaml")
    parser.add_argument("--endpoint-file", type=str, default="config/api_config.yaml")
    args = parser.parse_args()

    settings = make_config(args.setting_file)
    endpoint_list = make_config(args.endpoint_file)

    questions = [{"question_id": "q0", "turns": [{"content": "Explain the birthday paradox."}]}]
    for model in settings["model_list"]:
        endpoint_info = endpoint_list[model]
        with concurrent.futures.ThreadPoolExecutor(max_workers=endpoint_info["parallel"]) as executor:
            futures = [
                executor.submit(get_answer, q, model, endpoint_info, settings["max_tokens"], settings["temperature"])
                for q in questions
            ]
            for future in concurrent.futures.as_completed(futures):
                print(future.result())
