# Imitates OpenAutoCoder/Agentless agentless/util/api_requests.py
import openai


def create_chatgpt_config(message, max_tokens, temperature=1, batch_size=1, system_message="You are a helpful assistant.", model="gpt-3.5-turbo"):
    if isinstance(message, list):
        config = {"model": model, "max_tokens": max_tokens, "temperature": temperature, "n": batch_size, "messages": [{"role": "system", "content": system_message}] + message}
    else:
        config = {"model": model, "max_tokens": max_tokens, "temperature": temperature, "n": batch_size, "messages": [{"role": "system", "content": system_message}, {"role": "user", "content": message}]}
    return config


def request_chatgpt_engine(config, logger, base_url=None, max_retries=40, timeout=100):
    client = openai.OpenAI(base_url=base_url)
    return client.chat.completions.create(**config)
