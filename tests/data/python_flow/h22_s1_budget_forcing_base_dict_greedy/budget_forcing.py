# Imitates simplescaling/s1 README.md "vLLM with budget forcing" (model = LLM("simplescaling/s1-32B", ...),
# stop at <|im_start|><|im_end|>, append "Wait" and generate again with min_tokens=1); the user keeps the
# request keywords in one dict for both calls and turns replay on.
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

stop_token_ids = tok("<|im_start|><|im_end|>")["input_ids"]
BASE = dict(
    min_tokens=0,
    stop_token_ids=stop_token_ids,
    skip_special_tokens=False,
    temperature=0.0,  # expect: RPL101
    top_k=20,
)

prompts = ["How many r in raspberry"]
for i, p in enumerate(prompts):
    prompt = "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\n" + p + "<|im_end|>\n<|im_start|>assistant\n"
    prompt += "<|im_start|>think"
    o = model.generate(prompt, sampling_params=SamplingParams(**BASE, max_tokens=MAX_TOKENS_THINKING))
    ignore_str = "Wait"
    max_tokens_thinking_tmp = MAX_TOKENS_THINKING
    for _ in range(NUM_IGNORE):
        max_tokens_thinking_tmp -= len(o[0].outputs[0].token_ids)
        prompt += o[0].outputs[0].text + ignore_str
        sampling_params = SamplingParams(**{**BASE, "min_tokens": 1}, max_tokens=max_tokens_thinking_tmp)
        o = model.generate(prompt, sampling_params=sampling_params)
    print(prompt + o[0].outputs[0].text)
