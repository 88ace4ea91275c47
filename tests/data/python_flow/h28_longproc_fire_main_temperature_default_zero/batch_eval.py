# Imitates princeton-pli/LongProc batch_eval.py (run every task for a model and save outputs) and llm_utils.py's
# vLLM query; the user's copy exposes main() through fire.Fire, whose parameter defaults decide.
import fire
from vllm import LLM, SamplingParams


def main(
    model_name: str = "Qwen/Qwen2.5-7B-Instruct",
    task: str = "html_to_tsv_0.5k",
    temperature: float = 0.0,  # expect: RPL101
    top_p: float = 1.0,
    top_k: int = 50,
    max_model_len: int = 2048,
    gen_max_tokens: int = 1024,
):
    llm = LLM(
        model=model_name,
        dtype="auto",
        max_model_len=max_model_len,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling_params = SamplingParams(temperature=temperature, top_p=top_p, top_k=top_k, max_tokens=gen_max_tokens)
    prompts = [[{"role": "user", "content": f"Solve the {task} task."}]]
    return llm.chat(messages=prompts, sampling_params=sampling_params)


if __name__ == "__main__":
    fire.Fire(main)
