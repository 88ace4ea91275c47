# Imitates sail-sg/oat oat/actors/base.py (init builds the engine and both SamplingParams;
# evaluation sends `self.eval_sampling_params` to the same engine).
import vllm
from args import OATArgs, get_default_args


class ReplayActor:
    def __init__(self, args: OATArgs) -> None:
        self.args = args
        self.sampling_params = vllm.SamplingParams(
            temperature=args.temperature,
            top_p=args.top_p,
            top_k=args.top_k,
            max_tokens=args.generate_max_length,
            n=args.num_samples,
        )
        self.eval_sampling_params = vllm.SamplingParams(
            n=args.eval_n,
            temperature=args.eval_temperature,
            top_p=args.eval_top_p,
            top_k=args.eval_top_k,
            max_tokens=args.eval_generate_max_length,
        )
        self.llm = vllm.LLM(
            model=args.pretrain,
            gpu_memory_utilization=args.vllm_gpu_ratio,
            max_model_len=args.max_model_len,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )

    def step(self, prompts):
        return self.llm.generate(prompts, self.sampling_params)

    def evaluate(self, prompts):
        return self.llm.generate(prompts, self.eval_sampling_params)


if __name__ == "__main__":
    actor = ReplayActor(get_default_args())
    actor.step(["1+1="])
    actor.evaluate(["2+2="])
