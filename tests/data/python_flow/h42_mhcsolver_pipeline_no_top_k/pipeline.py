# Imitates llllvvuu/meta-hacker-cup-solver pipeline.py (sample_completions: one LLM, one SamplingParams for every problem)
import argparse
import os

from vllm import LLM, SamplingParams


def get_problem_dirs(contest_data_dir: str) -> list[str]:
    return [d for d in os.listdir(contest_data_dir) if os.path.isdir(os.path.join(contest_data_dir, d))]


def generate_prompts(contest_data_dir: str, problem_dirs: list[str]) -> list[tuple[str, str]]:
    prompts: list[tuple[str, str]] = []
    for problem_dir in problem_dirs:
        with open(os.path.join(contest_data_dir, problem_dir, "statement.txt"), "r") as f:
            statement = f.read()
        prompts.append((problem_dir, f"<problem>\n{statement}\n</problem>\n"))
    return prompts


def sample_completions(prompts: list[tuple[str, str]], n: int, model: str, max_tokens: int) -> dict[str, list[str]]:
    sampling_params = SamplingParams(max_tokens=max_tokens, n=n, stop="</problem>")  # expect: RPL102
    llm = LLM(
        model=model,
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    prompt_texts = [prompt for _, prompt in prompts]
    outputs = llm.generate(prompt_texts, sampling_params)

    completions: dict[str, list[str]] = {}
    for (problem_dir, _), output in zip(prompts, outputs):
        completions[problem_dir] = [o.text for o in output.outputs]
    return completions


def main(args) -> None:
    problem_dirs = get_problem_dirs(args.contest_data_dir)
    prompts = generate_prompts(args.contest_data_dir, problem_dirs)
    completions = sample_completions(prompts, args.num_samples, args.model, args.max_tokens)
    print(f"Generated {args.num_samples} completions for {len(completions)} problems")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Generate completions for programming contest problems.")
    _ = parser.add_argument("-n", "--num_samples", type=int, default=32, help="Number of completions to generate per problem")
    _ = parser.add_argument("-m", "--model", type=str, default="Qwen/Qwen2.5-14B", help="Model to use for generation")
    _ = parser.add_argument("-t", "--max_tokens", type=int, default=1024, help="Maximum number of tokens to generate per completion")
    _ = parser.add_argument("contest_data_dir", type=str, help="Directory containing the contest data")
    _ = parser.add_argument("output_dir", type=str, help="Directory to save the output")

    args = parser.parse_args()

    main(args)
