# Imitates pytorch/torchtune recipes/dev/async_grpo_full_finetune_distributed.py (Ray async GRPO: the
# controller starts SyncLLMCollector actors whose vLLM engine samples with vllm_generate), trimmed.

import os
import time
from typing import Any

import ray
from omegaconf import DictConfig, OmegaConf
from ray.util.queue import Queue
from tensordict import TensorDict, TensorDictBase
from torchtune import config, utils
from torchtune.dev.rl.workers import SyncLLMCollector
from vllm import SamplingParams

log = utils.get_logger("DEBUG")


def vllm_generate(
    tensordict: TensorDictBase,
    vllm_instance,  # The LLM object
    generate_kwargs: dict[str, Any] | None = None,
    tokenizer=None,
    text_key: str = "text",
    pad_output: bool = True,
    padding_value: int = -1,
) -> TensorDict:
    args = ()

    if generate_kwargs is None:
        generate_kwargs = {}
    generate_kwargs.setdefault("detokenize", True)
    generate_kwargs.setdefault("prompt_logprobs", False)
    generate_kwargs.setdefault("logprobs", True)
    # Create SamplingParams from generate_kwargs
    sampling_params = SamplingParams(**generate_kwargs)
    kwargs = {"sampling_params": sampling_params, "use_tqdm": False}

    txt = tensordict.get(text_key)
    if not isinstance(txt, (list, str)):
        txt = txt.tolist()
    args = (txt,)

    time_generate_start = time.perf_counter()
    tokens_out = vllm_instance.generate(*args, **kwargs)
    time_generate = time.perf_counter() - time_generate_start
    return tokens_out, time_generate


class RayGRPORecipe:
    def setup(self, cfg: DictConfig):
        self.cfg = cfg

        self.num_inference_workers = cfg.orchestration.num_inference_workers
        self.vllm_tp_size = cfg.inference.tensor_parallel_dim
        self.rollout_queue = Queue(
            actor_options={"num_cpus": 10, "num_gpus": 0},
            maxsize=self.cfg.inference.queue_maxsize,
        )
        ray.init(num_cpus=192, num_gpus=8)
        self.rollout_workers = self._create_data_collectors()

    def _create_data_collectors(self):
        data_collectors = []

        # This seems to need to be done to prevent some internal checks in torchrl
        vllm_generate.out_keys = [
            "prompt",
            "prompt_tokens",
            "response",
            "response_tokens",
            "prompt_attention_mask",
            "log_probs",
        ]

        for i in range(self.num_inference_workers):
            collector = (
                ray.remote(
                    num_cpus=0,
                    num_gpus=self.cfg.inference.tensor_parallel_dim,
                )(SyncLLMCollector)
                .options(max_concurrency=5)
                .remote(
                    cfg=self.cfg,
                    llm=self.cfg.inference.model,
                    policy=vllm_generate,
                    worker_id=i,
                    dialog_turns_per_batch=1,
                    total_dialog_turns=-1,
                    reset_at_each_iter=True,
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
    OmegaConf.register_new_resolver("eval", eval)
    OmegaConf.resolve(cfg)

    if cfg.get("enable_expandable_segments", True):
        os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"

    recipe = RayGRPORecipe()
    recipe.setup(cfg)
    recipe.run()
    recipe.cleanup()


if __name__ == "__main__":
    recipe_main()
