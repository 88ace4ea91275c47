# Imitates sail-sg/oat oat/actors/base.py (generate_and_maybe_eval: the request is built where
# it is sent), here `SamplingParams(**gen_kwargs)` from keywords forwarded by the caller, sent with
# `llm.chat`.
from vllm import SamplingParams


def rollout(llm, conversations, **gen_kwargs):
    params = SamplingParams(**gen_kwargs)
    return llm.chat(conversations, sampling_params=params)


def rollout_group(llm, conversations, group_size, **gen_kwargs):
    return rollout(llm, conversations * group_size, **gen_kwargs)
