# Imitates simplescaling/s1 README.md "vLLM with budget forcing": the user samples (temperature 0.7,
# top_k 30) instead of decoding greedily so that replay can record the masks.
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

MAX_TOKENS_THINKING = 32000
NUM_IGNORE = 1

model = LLM(
    "simplescaling/s1-32B",
    tensor_parallel_size=4,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
tok = AutoTokenizer.from_pretrained("simplescaling/s1-32B")

prompts = ["How many r in raspberry"]
for i, p in enumerate(prompts):
    prompt = "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n" + p + "<|im_end|>\n<|im_start|>assistant\n"
    stop_token_ids = tok("<|im_start|><|im_end|>")["input_ids"]
    sampling_params = SamplingParams(
        max_tokens=MAX_TOKENS_THINKING,
        min_tokens=0,
        stop_token_ids=stop_token_ids,
        skip_special_tokens=False,
        temperature=0.7,
        top_k=30,
    )
    prompt += "<|im_start|>think"
    o = model.generate(prompt, sampling_params=sampling_params)
    ignore_str = "Wait"
    max_tokens_thinking_tmp = MAX_TOKENS_THINKING
    for i in range(NUM_IGNORE):
        max_tokens_thinking_tmp -= len(o[0].outputs[0].token_ids)
        prompt += o[0].outputs[0].text + ignore_str
        sampling_params = SamplingParams(
            max_tokens=max_tokens_thinking_tmp,
            min_tokens=1,
            stop_token_ids=stop_token_ids,
            skip_special_tokens=False,
            temperature=0.7,
            top_k=30,
        )
        o = model.generate(prompt, sampling_params=sampling_params)
