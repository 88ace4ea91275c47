# Imitates OpenBMB/MiniCPM demo/minicpm/vllm_based_demo.py: argparse model settings, LLM with a
# torch dtype, and vllm_gen building SamplingParams(**params_dict) from a dict literal. The user
# dropped the keywords vLLM no longer takes (best_of, use_beam_search, length_penalty,
# early_stopping), turned replay on and calls vllm_gen from a loop instead of the Gradio buttons.
import argparse

import torch
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser()
parser.add_argument("--model_path", type=str, default="openbmb/MiniCPM-1B-sft-bf16")
parser.add_argument("--torch_dtype", type=str, default="bfloat16", choices=["float32", "bfloat16"])
parser.add_argument("--max_tokens", type=int, default=2048)
args = parser.parse_args()

torch_dtype = args.torch_dtype
if torch_dtype == "" or torch_dtype == "bfloat16":
    torch_dtype = torch.bfloat16
elif torch_dtype == "float32":
    torch_dtype = torch.float32
else:
    raise ValueError(f"Invalid torch dtype: {torch_dtype}")

path = args.model_path
llm = LLM(
    model=path,
    tensor_parallel_size=1,
    dtype=torch_dtype,
    trust_remote_code=True,
    gpu_memory_utilization=0.9,
    max_model_len=args.max_tokens,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
tokenizer = AutoTokenizer.from_pretrained(args.model_path, trust_remote_code=True)


def vllm_gen(dialog, top_p, temperature, max_dec_len):
    prompt = tokenizer.apply_chat_template(dialog, tokenize=False, add_generation_prompt=False)
    token_ids = tokenizer.convert_tokens_to_ids(["<|im_end|>"])
    params_dict = {
        "n": 1,
        "presence_penalty": 0.0,
        "frequency_penalty": 0.0,
        "temperature": temperature,
        "top_p": top_p,
        "top_k": -1,  # expect: RPL102
        "stop": "<|im_end|>",
        "stop_token_ids": token_ids,
        "ignore_eos": False,
        "max_tokens": max_dec_len,
        "logprobs": None,
        "prompt_logprobs": None,
        "skip_special_tokens": True,
    }
    sampling_params = SamplingParams(**params_dict)
    outputs = llm.generate(prompts=prompt, sampling_params=sampling_params)[0]
    return outputs.outputs[0].text


if __name__ == "__main__":
    history = []
    for query in ["Hello", "Tell me about Beijing"]:
        history.append({"role": "user", "content": query})
        answer = vllm_gen(history, top_p=0.8, temperature=0.5, max_dec_len=args.max_tokens)
        history.append({"role": "assistant", "content": answer})
        print(answer)
