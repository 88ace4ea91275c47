import modal

image = modal.Image.debian_slim(python_version="3.12").uv_pip_install("vllm==0.34.0")
volume = modal.Volume.from_name("rollouts", create_if_missing=True)
app = modal.App("qwen3-thinking-rollouts")


@app.function(image=image, gpu="H100", timeout=60 * 60, volumes={"/data": volume})
def rollout(prompts: list[str]) -> int:
    import json

    from vllm import LLM, SamplingParams

    llm = LLM(
        model="Qwen/Qwen3-8B",
        reasoning_parser="qwen3",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        max_model_len=8192,
    )
    params = SamplingParams(
        n=8,
        temperature=0.6,
        top_p=0.95,
        top_k=20,
        max_tokens=6144,
        thinking_token_budget=2048,
        logprobs=0,
    )
    outputs = llm.chat([[{"role": "user", "content": p}] for p in prompts], params)
    with open("/data/rollouts.jsonl", "w") as f:
        for out in outputs:
            for sample in out.outputs:
                f.write(json.dumps({"token_ids": list(sample.token_ids), "mask": sample.sampling_mask}) + "\n")
    volume.commit()
    return len(outputs)


@app.local_entrypoint()
def main(path: str = "prompts.txt"):
    with open(path) as f:
        prompts = [line.strip() for line in f if line.strip()]
    print(rollout.remote(prompts))
