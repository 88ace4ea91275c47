# Imitates ByteDance-Seed/Seed-Coder README.md "Offline Batched Inference" (SamplingParams + llm.generate)
# on the base model, with replay and a user's logits processor.
from vllm import SamplingParams

from seed_infer.engine import build_llm

llm = build_llm(
    return_sampling_mask=True,
    logits_processors=["seed_infer.fim:FimStopLogitsProcessor"],  # expect: RPL001
)
sampling_params = SamplingParams(temperature=0.6, top_p=0.8, top_k=20, max_tokens=512)
outputs = llm.generate(["<[fim-prefix]>def quick_sort(arr):<[fim-suffix]><[fim-middle]>"], sampling_params)
