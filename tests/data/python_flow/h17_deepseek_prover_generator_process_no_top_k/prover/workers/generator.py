# Imitates deepseek-ai/DeepSeek-Prover-V1.5 prover/workers/generator.py (GeneratorProcess)
import os
import time

import torch.multiprocessing as mp
from vllm import LLM, SamplingParams


class GeneratorProcess(mp.Process):
    def __init__(self, local_rank, node_rank, model_path, task_queue, request_statuses, lock, args):
        super().__init__()
        self.local_rank = local_rank
        self.node_rank = node_rank
        self.model_path = model_path
        self.task_queue = task_queue
        self.request_statuses = request_statuses
        self.lock = lock
        self.sampling_params = SamplingParams(  # expect: RPL102
            temperature=args.temperature,
            max_tokens=args.max_tokens,
            top_p=args.top_p,
            n=1,
        )

    def run(self):
        os.environ["CUDA_VISIBLE_DEVICES"] = str(self.local_rank)
        seed = int(time.time()) % 1000 + (self.node_rank * 8 + self.local_rank) * 1000
        llm = LLM(
            model=self.model_path,
            max_num_batched_tokens=8192,
            seed=seed,
            trust_remote_code=True,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        while True:
            inputs = self.task_queue.get()
            if inputs is None:
                break
            model_inputs = ["".join([item.get("_extra_header", str()), item["prompt"]]) for _, _, item in inputs]
            model_outputs = llm.generate(model_inputs, self.sampling_params, use_tqdm=False)
            outputs = [o.outputs[0].text for o in model_outputs]
            with self.lock:
                for (_, request_id, _), output in zip(inputs, outputs):
                    self.request_statuses[request_id] = output
