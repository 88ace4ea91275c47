# Imitates huggingface/search-and-learn src/sal/search/best_of_n.py
from vllm import LLM, SamplingParams

from sal.config import Config


def best_of_n(x, config: Config, llm: LLM, prm=None):
    convs = [
        [{"role": "system", "content": "Solve the problem."}, {"role": "user", "content": prompt}]
        for prompt in x["problem"]
    ]
    sampling_params = SamplingParams(
        temperature=config.temperature,
        max_tokens=config.max_tokens,
        top_p=config.top_p,
        top_k=config.top_k,
        n=1,
    )
    responses = llm.chat(convs * config.n, sampling_params=sampling_params, use_tqdm=False)
    x["completions"] = [[o.text for o in r.outputs] for r in responses]
    return x
