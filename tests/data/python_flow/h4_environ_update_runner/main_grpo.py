# Imitates langfengQ/verl-agent/examples/run_local_rollout.py (environment set in code before the engine)
import os

os.environ.update(
    {
        "TOKENIZERS_PARALLELISM": "true",
        "NCCL_DEBUG": "WARN",
        "VLLM_USE_V2_MODEL_RUNNER": "0",  # expect: RPL206
    }
)

from vllm import LLM, SamplingParams  # noqa: E402


def main():
    llm = LLM(model="Qwen/Qwen2.5-1.5B-Instruct", enforce_eager=True, max_model_len=4096)
    params = SamplingParams(temperature=0.7, max_tokens=256)
    for out in llm.generate(["You are in a kitchen. Find the apple."], params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
