# Imitates snowflakedb/ArcticTraining's synth examples (VllmSynth(model_params={...}) then add/execute batch tasks),
# with the user's replay keywords in model_params and no sampling_params given.
from vllm_callers import VllmSynth

client = VllmSynth(
    model_params={
        "model": "Snowflake/Llama-3.1-SwiftKV-8B-Instruct",
        "tensor_parallel_size": 1,
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    },
)
client.add_chat_to_batch_task("sql", [{"role": "user", "content": "Write a SQL query that counts rows."}])
print(client.execute_batch_task("sql")[0].outputs[0].text)
