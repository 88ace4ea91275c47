# Imitates snowflakedb/ArcticTraining's synth examples (VllmSynth(model_params={...}, sampling_params={...})),
# with the user's replay keywords and a sampling dict that bounds top_k (clean).
from vllm_callers import VllmSynth

model_params = {"model": "Snowflake/Llama-3.1-SwiftKV-8B-Instruct", "tensor_parallel_size": 1}
model_params.update(return_sampling_mask=True, logprobs_mode="processed_logprobs")
client = VllmSynth(model_params=model_params, sampling_params={"temperature": 0.7, "top_k": 50, "max_tokens": 1024})
client.add_chat_to_batch_task("sql", [{"role": "user", "content": "Write a SQL query that counts rows."}])
print(client.execute_batch_task("sql")[0].outputs[0].text)
