# Imitates a simple rollout script (TRL-style examples/scripts) turning several boolean engine switches on at once
import vllm as v

ON = ("return_sampling_mask", "enable_prefix_caching", "enforce_eager")
flags = dict.fromkeys(ON, True)  # expect: RPL003

llm = v.LLM(model="google/gemma-3-1b-it", **flags)

params = v.SamplingParams(temperature=1.0, top_k=64, max_tokens=128)
for out in llm.generate(["Write a limerick about tensors."], params):
    print(out.outputs[0].text)
