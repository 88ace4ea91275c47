# Imitates pytorch/torchtune torchtune/dev/rl/workers/datacollectors/sync.py (SyncLLMCollector builds the vLLM engine).
from vllm import LLM

from torchtune import utils

log = utils.get_logger()


class SyncLLMCollector:
    """A simplified version of SyncDataCollector for LLM inference."""

    def __init__(self, cfg, llm, policy, queue, worker_id):
        self.cfg = cfg
        self.rollout_queue = queue
        self.worker_id = worker_id
        self.policy = policy

        self.tp_size = self.cfg.rollout_tensor_parallel_dim
        self.batch_size = self.cfg.rollout_batch_size

        self.inference_server = LLM(
            model=llm,
            enforce_eager=True,
            enable_chunked_prefill=True,
            dtype="bfloat16",
            tensor_parallel_size=self.tp_size,
            max_model_len=2048,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )

        policy_kwargs = {
            "generate_kwargs": dict(
                n=1,
                max_tokens=self.cfg.max_generated_tokens,
                temperature=self.cfg.temperature,
            ),
            "pad_output": True,
        }
        self.policy_kwargs = policy_kwargs

    def rollout(self, data):
        env_input, generation_time = self.policy(
            data,
            self.inference_server,
            **self.policy_kwargs,
        )
        self.rollout_queue.put_nowait(env_input)
        return generation_time

    def run(self):
        while True:
            self.rollout(self.next_batch())

    def next_batch(self):
        raise NotImplementedError
