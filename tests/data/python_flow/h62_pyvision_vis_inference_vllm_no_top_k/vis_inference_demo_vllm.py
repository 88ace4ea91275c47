# Imitates agents-x-project/PyVision-RL verl/verl/workers/rollout/vllm_rollout/o3_inference_engine/vis_inference_demo_vllm.py
import argparse
import json


def process_prompt_init(question, tokenizer, prompt_template, prompt_type):
    with open(prompt_template, "r") as fin:
        sys_prompts = json.load(fin)
    prompt_prefix = sys_prompts[prompt_type]
    messages = [{"role": "user", "content": prompt_prefix.format(query=question)}]
    chat_prompt = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    return chat_prompt, messages


def evaluate_single_data_vllm(args, data, model, tokenizer):
    prompt_template = args.prompt_template
    prompt = args.prompt
    exe_code = args.exe_code
    max_tokens = args.max_tokens

    chat_prompt, messages = process_prompt_init(data["question"], tokenizer, prompt_template, prompt)

    from vllm import SamplingParams

    # Generate initial response
    sampling_params = SamplingParams(  # expect: RPL102
        temperature=0.6,
        top_p=1.0,
        max_tokens=max_tokens,
        stop=["</code>"] if exe_code else [],
        n=1,
    )

    response = model.generate(chat_prompt, sampling_params)[0]
    output = response.outputs[0]
    return messages, output.text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--question", type=str, help="Input question for single evaluation")
    parser.add_argument("--model_name_or_path", type=str, required=True, help="Path to the model")
    parser.add_argument("--max_tokens", type=int, default=1024, help="Maximum tokens to generate")
    parser.add_argument("--prompt", type=str, default="vistool", help="Prompt type to use")
    parser.add_argument("--prompt_template", type=str, required=True, help="Path to prompt template file")
    parser.add_argument("--exe_code", action="store_true", help="Enable code execution")
    args = parser.parse_args()

    from transformers import AutoTokenizer
    from vllm import LLM

    tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path)
    model = LLM(
        model=args.model_name_or_path,
        trust_remote_code=True,
        dtype="bfloat16",
        tensor_parallel_size=4,
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    data = {"question": args.question}
    messages, solution = evaluate_single_data_vllm(args, data, model, tokenizer)
    print(solution)


if __name__ == "__main__":
    main()
