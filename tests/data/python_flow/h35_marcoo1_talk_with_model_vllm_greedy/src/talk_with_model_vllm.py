# Imitates AIDC-AI/Marco-o1 src/talk_with_model_vllm.py (token-by-token chat loop on vllm.LLM)
import torch
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams


def load_model_and_tokenizer(path):
    tokenizer = AutoTokenizer.from_pretrained(path, trust_remote_code=True)
    model = LLM(
        model=path,
        tensor_parallel_size=4,
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    return tokenizer, model


def generate_response(model, text, max_new_tokens=4096):
    new_output = ''
    sampling_params = SamplingParams(
        max_tokens=1,
        temperature=0,  # expect: RPL101
        top_p=0.9,
        top_k=20,
    )
    with torch.inference_mode():
        for _ in range(max_new_tokens):
            outputs = model.generate(
                [f'{text}{new_output}'],
                sampling_params=sampling_params,
                use_tqdm=False
            )
            new_output += outputs[0].outputs[0].text
            print(outputs[0].outputs[0].text, end='', flush=True)
            if new_output.endswith('</Output>'):
                break
    return new_output


def chat(model, tokenizer):
    history = []
    print("Enter 'q' to quit, 'c' to clear chat history.")
    while True:
        user_input = input("User: ").strip().lower()
        if user_input == 'q':
            print("Exiting chat.")
            break
        if user_input == 'c':
            print("Clearing chat history.")
            history.clear()
            continue
        if not user_input:
            print("Input cannot be empty.")
            continue

        history.append({"role": "user", "content": user_input})
        text = tokenizer.apply_chat_template(history, tokenize=False, add_generation_prompt=True)
        print('Assistant:', end=' ', flush=True)
        response = generate_response(model, text)
        print()
        history.append({"role": "assistant", "content": response})


def main():
    # path = "AIDC-AI/Marco-o1"
    path = 'AIDC-AI/Marco-o1'

    tokenizer, model = load_model_and_tokenizer(path)
    print('Starting chat.')
    chat(model, tokenizer)


if __name__ == "__main__":
    main()
