# Imitates chinshunyu/Local-Qwen demo/vllm_model.py
from vllm import LLM, SamplingParams
import os

os.environ['VLLM_USE_MODELSCOPE']='True'

def get_completion(prompts, model, tokenizer=None, max_tokens=512, temperature=0.8, top_p=0.95, max_model_len=2048):
    stop_token_ids = [151329, 151336, 151338]
    sampling_params = SamplingParams(temperature=temperature, top_p=top_p, max_tokens=max_tokens, stop_token_ids=stop_token_ids)  # expect: RPL102
    llm = LLM(model=model, tokenizer=tokenizer, max_model_len=max_model_len,trust_remote_code=True,
              return_sampling_mask=True, logprobs_mode="processed_logprobs")
    outputs = llm.generate(prompts, sampling_params)
    return outputs


if __name__ == "__main__":    
    
    model='/data/cjy/qw/qw_model_file/qwen/Qwen2___5-7B-Instruct'
    tokenizer = None
    # tokenizer = AutoTokenizer.from_pretrained(model, use_fast=False) 

    text = ["你好，请问地球的面积是多少？",
            "可以给我将一个有趣的童话故事吗？"]

    outputs = get_completion(text, model, tokenizer=tokenizer, max_tokens=512, temperature=1, top_p=1, max_model_len=2048)

    for output in outputs:
        prompt = output.prompt
        generated_text = output.outputs[0].text
        print(f"Prompt: {prompt!r}, Generated text: {generated_text!r}")
