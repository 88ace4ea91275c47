# Imitates sail-sg/oat oat/interface.py (get_program: the `vllm_args` dict handed to every
# actor node) and oat/actors/base.py (ActorBase.init: `self.vllm_args.update({...})`, then
# `vllm.LLM(**self.vllm_args)` in a retry loop). The mask is switched on in the actor's update.
from oatlike.actors.base import PolicyActor
from oatlike.args import OATArgs


def get_program(args: OATArgs):
    vllm_args = {
        "model": args.pretrain,
        "trust_remote_code": True,
        "tensor_parallel_size": args.num_gpus_per_actor,
        "gpu_memory_utilization": args.vllm_gpu_ratio,
        "dtype": "bfloat16" if args.bf16 else "float16",
        "enable_prefix_caching": args.enable_prefix_caching,
        "enable_sleep_mode": args.vllm_sleep,
        "max_model_len": args.max_model_len,
    }
    actors = []
    for i in range(args.num_actors):
        actors.append(PolicyActor(i, vllm_args, args))
    return actors


if __name__ == "__main__":
    for actor in get_program(OATArgs()):
        actor.init(actor_id=0, save_path="/tmp/oat")
