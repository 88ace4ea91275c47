# Imitates GAIR-NLP/MAYE recipes/full_ppo_vllm_distributed.py (started by scripts/train_ppo_vllm_distributed.sh)
import sys
from unittest.mock import patch

import hydra
import torch
import torch.distributed as dist
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf
from vllm import LLM, SamplingParams

from maye import training, utils


class PPOFullFinetuneRecipeDistributed:
    def __init__(self, cfg: DictConfig) -> None:
        self.device = utils.get_device(device=cfg.device)
        dist.init_process_group("nccl")
        self.world_size, self.rank = training.get_world_size_and_rank()
        self.is_rank_zero = self.rank == 0
        self.total_epochs = cfg.num_epochs

    def setup(self, cfg: DictConfig) -> None:
        OmegaConf.resolve(cfg)
        utils.log_rank_zero(OmegaConf.to_yaml(cfg))
        self.processor = instantiate(cfg.processor)
        self.dataloader = instantiate(cfg.dataset)
        self.validation_dataloader = instantiate(cfg.validation_dataset)
        self.setup_training_hyperparameters(cfg)
        self.setup_vllm(cfg.vllm)

    def setup_vllm(self, cfg: DictConfig):
        if self.is_rank_zero:
            world_size_patch = patch("torch.distributed.get_world_size", return_value=1)
            profiling_patch = patch(
                "vllm.worker.worker.Worker._assert_memory_footprint_increased_during_profiling",
                return_value=None,
            )
            with world_size_patch, profiling_patch:
                self.llm = LLM(
                    model=cfg.model,
                    gpu_memory_utilization=cfg.gpu_memory_utilization,
                    dtype=cfg.dtype,
                    max_model_len=2048,
                    distributed_executor_backend="external_launcher",
                    return_sampling_mask=True,
                    logprobs_mode="processed_logprobs",
                )

        dist.barrier()

    def setup_training_hyperparameters(self, cfg: DictConfig) -> None:
        # trajectory generation args
        self.generation_kwargs = instantiate(cfg.generation_kwargs)

    def generate_trajectory(self, batch):
        outputs = self.llm.generate(
            batch, sampling_params=self.generation_kwargs, use_tqdm=False
        )
        return [o.outputs[0].text for o in outputs]

    def train(self) -> None:
        for curr_epoch in range(self.total_epochs):
            for batch, samples in self.dataloader:
                if self.is_rank_zero:
                    response_texts = self.generate_trajectory(batch)
                    utils.log_rank_zero(response_texts[:1])
            if self.is_rank_zero:
                self.eval(self.validation_dataloader, "Validation", 1, "low", curr_epoch)
                self.eval(self.validation_dataloader, "Validation", 1, "medium", curr_epoch)
                self.eval(self.validation_dataloader, "Validation", 8, "high", curr_epoch)

    @torch.inference_mode()
    def eval(self, dataloader, eval_name: str, passk: int, generation_strategy: str, epoch: int):
        if generation_strategy == "high":
            eval_generation_kwargs = SamplingParams(
                temperature=1.0,
                max_tokens=2048,
                top_p=1.0,
                top_k=20,
            )
        elif generation_strategy == "medium":
            eval_generation_kwargs = SamplingParams(
                temperature=0.6,
                max_tokens=2048,
                top_p=1.0,
                top_k=20,
            )
        elif generation_strategy == "low":
            eval_generation_kwargs = SamplingParams(
                temperature=0.01,
                max_tokens=2048,
                top_p=0.001,
                top_k=20,
            )
        else:
            raise ValueError(
                f"Invalid evaluation generation strategy: {generation_strategy}"
            )

        for batch, samples in dataloader:
            for _ in range(passk):
                outputs = self.llm.generate(
                    batch, sampling_params=eval_generation_kwargs, use_tqdm=False
                )
                utils.log_rank_zero(f"{eval_name} {epoch}: {outputs[0].outputs[0].text}")

    def cleanup(self) -> None:
        dist.destroy_process_group()


@hydra.main(version_base=None, config_path="configs", config_name="full_ppo_vllm_distributed")
def recipe_main(cfg: DictConfig) -> None:
    recipe = PPOFullFinetuneRecipeDistributed(cfg=cfg)
    recipe.setup(cfg=cfg)
    recipe.train()
    recipe.cleanup()


if __name__ == "__main__":
    sys.exit(recipe_main())
