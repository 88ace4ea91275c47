# A stand-in for OpenRLHF's openrlhf/cli/train_ppo_ray.py @ 3c3be62, reduced to its call of
# `create_vllm_engines`: the caller is in the tree and passes no more than these.
from openrlhf.trainer.ray.vllm_engine import create_vllm_engines


def train(args, pg, max_len):
    logprobs_mode = "processed_logprobs" if args.algo.advantage.is_correction_enable else None
    return create_vllm_engines(
        args.vllm.num_engines,
        args.vllm.tensor_parallel_size,
        args.actor.pretrain,
        args.seed,
        args.full_determinism,
        args.vllm.enable_prefix_caching,
        args.vllm.enforce_eager,
        max_len,
        pg,
        args.vllm.gpu_memory_utilization,
        args.vllm.vllm_enable_sleep,
        logprobs_mode,
        agent_func_path=args.agent_func_path,
        remote_rm_url=args.reward.remote_url,
        max_images_per_prompt=args.max_images_per_prompt,
    )
