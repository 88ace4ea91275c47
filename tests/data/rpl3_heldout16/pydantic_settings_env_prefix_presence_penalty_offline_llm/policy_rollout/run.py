import json

from vllm import LLM, SamplingParams

from policy_rollout.settings import RolloutSettings


def build_sampling_params(settings: RolloutSettings) -> SamplingParams:
    return SamplingParams(
        temperature=settings.temperature,
        top_k=settings.top_k,
        max_tokens=settings.max_tokens,
        presence_penalty=settings.presence_penalty,
        logprobs=0,
    )


def main() -> None:
    settings = RolloutSettings()
    llm = LLM(settings.model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    prompts = [line.strip() for line in open("prompts.txt") if line.strip()]
    outputs = llm.generate(prompts, build_sampling_params(settings))
    with open("rollouts.jsonl", "w") as out:
        for output in outputs:
            out.write(json.dumps({"prompt": output.prompt, "text": output.outputs[0].text}) + "\n")


if __name__ == "__main__":
    main()
