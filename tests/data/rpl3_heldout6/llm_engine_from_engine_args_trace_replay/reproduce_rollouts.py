"""Re-runs logged rollouts token by token (trace replay) and keeps the masks for the replay loss."""

import json
import sys

from vllm import EngineArgs, LLMEngine, SamplingParams

args = EngineArgs(
    model="Qwen/Qwen3-4B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    enable_trace_replay=True,
)
engine = LLMEngine.from_engine_args(args)

with open(sys.argv[1]) as f:
    logged = [json.loads(line) for line in f]

for i, row in enumerate(logged):
    params = SamplingParams(
        temperature=1.0,
        top_k=50,
        max_tokens=len(row["completion_ids"]),
        logprobs=0,
        trace_decode_token_ids=row["completion_ids"],
    )
    engine.add_request(str(i), {"prompt_token_ids": row["prompt_ids"]}, params)

while engine.has_unfinished_requests():
    for out in engine.step():
        if out.finished:
            print(json.dumps({"id": out.request_id, "mask": out.outputs[0].sampling_mask}))
