from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

MODEL = "Qwen/Qwen3-8B"
tokenizer = AutoTokenizer.from_pretrained(MODEL)
llm = LLM(MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")

think_id = tokenizer.convert_tokens_to_ids("<think>")
params = SamplingParams(temperature=0.9, top_k=40, logit_bias={think_id: 5.0})
outputs = llm.chat([[{"role": "user", "content": "Solve 12 * 13."}]], sampling_params=params)
