# From pytorch/torchtune torchtune/dev/rl/workers/datacollectors/sync.py (the vLLM collector actor), trimmed.

import time

from omegaconf import DictConfig
from torchrl.collectors import SyncDataCollector

from torchtune import utils
from vllm import LLM

log = utils.get_logger()


class SyncLLMCollector(SyncDataCollector):
    """A simplified version of SyncDataCollector for LLM inference."""

    def __init__(
        self,
        cfg,
        llm,
        policy,
        queue,
        worker_id,
        *,
        dialog_turns_per_batch: int = -1,
        # -1 is never ending (until shutdown)
        total_dialog_turns: int = -1,
        async_envs: bool = False,
        reset_at_each_iter: bool = False,
    ):
        if async_envs:
            raise NotImplementedError
        self.cfg = cfg
        self.rollout_queue = queue
        self.worker_id = worker_id
        self.tp_size = self.cfg.inference.tensor_parallel_dim
        self.batch_size = self.cfg.inference.batch_size
        self.engine_args = self.cfg.inference.get("engine_args", {})
        self.inference_server = LLM(
            model=llm,
            enforce_eager=True,
            enable_chunked_prefill=True,
            dtype="bfloat16",
            tensor_parallel_size=self.tp_size,
            **self.engine_args,
        )

        # local import below LLM call to avoid vLLM no CUDA GPUs available error
        from torchtune import config

        self._tokenizer = config.instantiate(self.cfg.tokenizer)

        policy_kwargs = {
            "generate_kwargs": dict(
                n=1,
                max_tokens=self.cfg.inference.max_generated_tokens,
                temperature=self.cfg.inference.temperature,
            ),
            "pad_output": True,
            "padding_value": self._tokenizer.pad_id,
        }
        self.policy_kwargs = policy_kwargs

        # local import below LLM call to avoid vLLM no CUDA GPUs available error
        from torchrl.envs import LLMEnv

        env = LLMEnv.from_dataloader(
            dataloader=self._setup_data(self.cfg.dataset, self.batch_size),
            tokenizer=None,
            from_text=True,
            batch_size=self.batch_size,
            repeats=self.cfg.inference.group_size,
        )

        super().__init__(
            create_env_fn=env,
            policy=policy,
            frames_per_batch=dialog_turns_per_batch,
            total_frames=total_dialog_turns,
            reset_at_each_iter=reset_at_each_iter,
            use_buffers=False,
            trust_policy=True,
        )

        log.info("done init LLMCollector")

    def _setup_data(self, cfg_dataset: DictConfig, batch_size: int):
        from torchdata.stateful_dataloader import StatefulDataLoader
        from torchtune import config

        ds = config.instantiate(cfg_dataset, self._tokenizer)
        return StatefulDataLoader(dataset=ds, batch_size=batch_size)

    def run(self):
        i = 0
        while True:
            self.rollout(i)
            i += 1

    def rollout(self, idx):
        data = self.env.reset()
        trajectories = []
        collected_frames = 0
        time_generate = 0

        while collected_frames < self.frames_per_batch:
            policy_input = data
            env_input, generation_time = self.policy(
                policy_input,
                self.inference_server,
                **self.policy_kwargs,
            )
            env_output, env_next_output = self.env.step_and_maybe_reset(env_input)
            time_generate += generation_time
            trajectories.append(env_next_output)
            collected_frames += env_next_output.numel()

        self.rollout_queue.put_nowait(trajectories)
        return trajectories
