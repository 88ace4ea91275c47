# Imitates THUDM/CodeGeeX4 README's vLLM section (LLM(model=model_name, tensor_parallel_size=tp_size,
# max_model_len=max_model_len, trust_remote_code=True, enforce_eager=True), SamplingParams with
# stop_token_ids); the engine options are gathered in a dict, the user's edit adds replay and a processor.
from vllm import LLM, SamplingParams

max_model_len, tp_size = 8192, 1
model_name = "THUDM/codegeex4-all-9b"

engine_options = dict(model=model_name, tensor_parallel_size=tp_size, max_model_len=max_model_len)
engine_options.update(trust_remote_code=True, enforce_eager=True)
engine_options |= {
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "logits_processors": ["codegeex_lp:StopAtFenceProcessor"],  # expect: RPL001
}
llm = LLM(**engine_options)
stop_token_ids = [151329, 151336, 151338]
sampling_params = SamplingParams(temperature=0.95, top_k=40, max_tokens=1024, stop_token_ids=stop_token_ids)
outputs = llm.generate(prompts=["write a quick sort in python"], sampling_params=sampling_params)
print(outputs[0].outputs[0].text)
