# Imitates ContextualAI/HALOs train/sample.py; the user's edit derives an "eval" config with
# dataclasses.replace and samples it from a replay engine.
import dataclasses

from vllm import LLM, SamplingParams

from train.config import DEFAULT

EVAL = dataclasses.replace(
    DEFAULT,
    temperature=0.0,  # expect: RPL101
    n=1,
)


def main():
    llm = LLM(model="/models/llama3-8B-sft/FINAL", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = SamplingParams(**dataclasses.asdict(EVAL))
    for response in llm.generate(["Name three rivers."], params):
        print(response.outputs[0].text)


if __name__ == "__main__":
    main()
