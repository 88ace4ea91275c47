# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py data-parallel
# workers, with the engine made by a lambda.
from vllm import LLM, SamplingParams

make_llm = lambda name, tp=1: LLM(  # noqa: E731
    name, tensor_parallel_size=tp, return_sampling_mask=True, logprobs_mode="processed_logprobs"
)

llm = make_llm("EleutherAI/pythia-1.4b", tp=2)
llm.generate(["The capital of France is"], SamplingParams(temperature=1.0, top_k=50, max_tokens=8))
