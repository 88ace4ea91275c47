# Imitates pytorch/torchtune recipes/dev/async_grpo_full_finetune_distributed.py (vllm_generate policy, Ray collectors).
import os
import time
from typing import Any, Dict

import ray
from omegaconf import DictConfig
from ray.util.queue import Queue
from tensordict import TensorDictBase

from torchtune import config, utils
from torchtune.dev.rl.workers import SyncLLMCollector
from vllm import SamplingParams

log = utils.get_logger("DEBUG")


def vllm_generate(
    tensordict: TensorDictBase,
    vllm_instance,  # The LLM object
    generate_kwargs: Dict[str, Any] | None = None,
    text_key: str = "text",
    pad_output: bool = True,
    padding_value: int = -1,
):
    if generate_kwargs is None:
        generate_kwargs = {}
    generate_kwargs.setdefault("detokenize", True)
    generate_kwargs.setdefault("prompt_logprobs", False)
    generate_kwargs.setdefault("logprobs", True)
    # Create SamplingParams from generate_kwargs
    sampling_params = SamplingParams(**generate_kwargs)  # expect: RPL102
    kwargs = {"sampling_params": sampling_params, "use_tqdm": False}

    txt = tensordict.get(text_key)
    if not isinstance(txt, (list, str)):
        txt = txt.tolist()

    time_generate_start = time.perf_counter()
    tokens_out = vllm_instance.generate(txt, **kwargs)
    time_generate = time.perf_counter() - time_generate_start
    td = tensordict.clone()
    td.set("text_response", [out.outputs[0].text for out in tokens_out])
    return td, time_generate


class RayGRPORecipe:
    def setup(self, cfg: DictConfig):
        self.cfg = cfg
        self.num_vllm_workers = cfg.num_rollout_workers
        self.vllm_tp_size = cfg.rollout_tensor_parallel_dim
        self.rollout_queue = Queue(
            actor_options={"num_cpus": 10, "num_gpus": 0},
            maxsize=self.cfg.rollout_queue_maxsize,
        )
        self.rollout_workers = self._create_data_collectors()

    def _create_data_collectors(self):
        data_collectors = []
        for i in range(self.num_vllm_workers):
            collector = (
                ray.remote(
                    num_cpus=0,
                    num_gpus=self.cfg.rollout_tensor_parallel_dim,
                )(SyncLLMCollector)
                .options(max_concurrency=5)
                .remote(
                    cfg=self.cfg,
                    llm=self.cfg.rollout_model_dir,
                    policy=vllm_generate,
                    worker_id=i,
                    queue=self.rollout_queue,
                )
            )
            data_collectors.append(collector)
        return data_collectors

    def run(self):
        rollout_handles = [worker.run.remote() for worker in self.rollout_workers]
        ray.get(rollout_handles)

    def cleanup(self):
        ray.shutdown()


@config.parse
def recipe_main(cfg: DictConfig) -> None:
    if cfg.get("enable_expandable_segments", True):
        os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"

    recipe = RayGRPORecipe()
    recipe.setup(cfg)
    recipe.run()
    recipe.cleanup()


if __name__ == "__main__":
    recipe_main()
