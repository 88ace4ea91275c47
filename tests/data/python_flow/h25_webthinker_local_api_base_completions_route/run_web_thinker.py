# Imitates RUC-NLPIR/WebThinker scripts/run_web_thinker.py (argparse, AsyncOpenAI clients on --api_base_url and
# --aux_api_base_url, generate_response: completions.create with top_k and repetition_penalty in extra_body).
import argparse
import asyncio
from typing import List, Tuple

from openai import AsyncOpenAI
from transformers import AutoTokenizer

BEGIN_SEARCH_QUERY = "<|begin_search_query|>"
END_SEARCH_QUERY = "<|end_search_query|>"


def parse_args():
    parser = argparse.ArgumentParser(description="Run Search-o1 for various datasets and models.")
    parser.add_argument("--single_question", type=str, default=None, help="Single question to process instead of dataset")
    parser.add_argument("--temperature", type=float, default=0.7, help="Sampling temperature.")
    parser.add_argument("--top_p", type=float, default=0.8, help="Top-p sampling parameter.")
    parser.add_argument("--min_p", type=float, default=0.05, help="Minimum p sampling parameter.")
    parser.add_argument("--top_k_sampling", type=int, default=20, help="Top-k sampling parameter.")
    parser.add_argument("--repetition_penalty", type=float, default=1.05, help="Repetition penalty. If not set, defaults based on the model.")  # expect: RPL302
    parser.add_argument("--max_tokens", type=int, default=81920, help="Maximum number of tokens to generate.")
    parser.add_argument("--top_k", type=int, default=10, help="Maximum number of search documents to return.")
    parser.add_argument("--api_base_url", type=str, default="http://localhost:8000/v1", help="Base URL for the API endpoint")
    parser.add_argument("--aux_api_base_url", type=str, required=True, help="Base URL for the auxiliary model API endpoint")
    parser.add_argument("--model_name", type=str, default="QwQ-32B", help="Name of the model to use")
    parser.add_argument("--aux_model_name", type=str, default="Qwen2.5-32B-Instruct", help="Name of the auxiliary model to use")
    parser.add_argument("--concurrent_limit", type=int, default=32, help="Maximum number of concurrent API calls")
    parser.add_argument("--tokenizer_path", type=str, default="Qwen/QwQ-32B", help="Path to the main tokenizer")
    parser.add_argument("--api_key", type=str, default="empty", help="API key for the main model")
    parser.add_argument("--aux_api_key", type=str, default="empty", help="API key for the auxiliary model")
    return parser.parse_args()


args = parse_args()
tokenizer = AutoTokenizer.from_pretrained(args.tokenizer_path, trust_remote_code=True)


async def generate_response(
    client: AsyncOpenAI,
    prompt: str,
    semaphore: asyncio.Semaphore,
    temperature: float = 0.0,
    top_p: float = 1.0,
    max_tokens: int = 32768,
    repetition_penalty: float = 1.0,
    top_k: int = 1,
    model_name: str = "QwQ-32B",
    stop: List[str] = [END_SEARCH_QUERY],
    retry_limit: int = 3,
) -> Tuple[str, str]:
    """Generate a single response with retry logic"""
    for attempt in range(retry_limit):
        try:
            async with semaphore:
                messages = [{"role": "user", "content": prompt}]
                formatted_prompt = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
                response = await client.completions.create(  # expect: RPL301
                    model=model_name,
                    prompt=formatted_prompt,
                    temperature=temperature,
                    top_p=top_p,
                    max_tokens=max_tokens,
                    stop=stop,
                    extra_body={
                        "top_k": top_k,
                        "include_stop_str_in_output": True,
                        "repetition_penalty": repetition_penalty,
                    },
                    timeout=3600,
                )
                return formatted_prompt, response.choices[0].text
        except Exception as e:
            print(f"Generate Response Error occurred: {e}, Starting retry attempt {attempt + 1}")
            if attempt == retry_limit - 1:
                return "", ""
    return "", ""


async def summarize(aux_client: AsyncOpenAI, text: str) -> str:
    response = await aux_client.chat.completions.create(
        model=args.aux_model_name,
        messages=[{"role": "user", "content": f"Summarize the search results:\n{text}"}],
        temperature=0.7,
    )
    return response.choices[0].message.content


async def main_async():
    client = AsyncOpenAI(
        api_key=args.api_key,
        base_url=args.api_base_url,
    )
    aux_client = AsyncOpenAI(
        api_key=args.aux_api_key,
        base_url=args.aux_api_base_url,
    )
    semaphore = asyncio.Semaphore(args.concurrent_limit)
    question = args.single_question or "Who won the 2022 Turing Award?"
    _, output = await generate_response(
        client=client,
        prompt=question,
        semaphore=semaphore,
        temperature=args.temperature,
        top_p=args.top_p,
        max_tokens=args.max_tokens,
        repetition_penalty=args.repetition_penalty,
        top_k=args.top_k_sampling,
        model_name=args.model_name,
        stop=[END_SEARCH_QUERY, tokenizer.eos_token],
    )
    if BEGIN_SEARCH_QUERY in output:
        print(await summarize(aux_client, output))
    print(output)


if __name__ == "__main__":
    asyncio.run(main_async())
