# Imitates sail-sg/oat oat/actors/base.py (ActorBase.init).
import time

import vllm


class PolicyActor:
    def __init__(self, actor_id, vllm_args, args) -> None:
        self.actor_id = actor_id
        self.vllm_args = vllm_args
        self.args = args

    def init(self, actor_id, save_path):
        args = self.args
        self.save_path = save_path
        self.sampling_params = vllm.SamplingParams(
            temperature=args.temperature,
            top_p=args.top_p,
            top_k=args.top_k,
            max_tokens=args.generate_max_length,
            n=args.num_samples,
        )
        self.vllm_args.update(
            {
                "seed": time.time_ns() % 2**32,
                "worker_extension_cls": "oatlike.utils.distributed.WorkerWrap",
                "return_sampling_mask": True,
            }
        )
        _wait_time = 5
        for _ in range(10):
            try:
                self.llm = vllm.LLM(**self.vllm_args)
                break
            except Exception as e:
                time.sleep(_wait_time)
                _wait_time *= 1.2
                print(e)
        else:
            raise RuntimeError("vllm cannot load the model")

    def generate(self, prompts):
        return self.llm.generate(prompts, sampling_params=self.sampling_params)
