# Imitates ServiceNow/TapeAgents examples/rl_gsm8k/orchestrate_rl.py (a hydra main starting the actor's and the
# reference model's vLLM servers with VLLMServiceManager(**(dict(vllm_kwargs) | dict(actor_vllm_kwargs)))), trimmed:
# the rollouts through tapeagents' TrainableLLM and the finetuning launch left out.
import logging
import os
from pathlib import Path

import hydra
import torch
from omegaconf import DictConfig

from .utils import VLLMServiceManager

logger = logging.getLogger(__name__)


@hydra.main(config_path="../../conf/", config_name="rl_gsm8k", version_base="1.3.2")
def main(cfg: DictConfig):
    exp_path = Path(cfg.output_dir)
    finetune_path = exp_path / "finetune"
    iteration = 0
    while iteration < cfg.max_iterations:
        if os.path.exists(finetune_path / "current"):
            assistant_model_path = str(finetune_path / "current")
        else:
            assistant_model_path = cfg.model_path

        # Collect tapes using the assistant model
        with VLLMServiceManager(
            exp_path=exp_path,
            service_name="actor",
            model_name_or_path=assistant_model_path,
            port=8080,
            verbose=True,
            cuda_device=",".join([str(i) for i in range(torch.cuda.device_count())]),
            **(dict(cfg.vllm_config.vllm_kwargs) | dict(cfg.vllm_config.actor_vllm_kwargs)),
        ) as vllm_service_manager:
            logger.info(f"Actor servers at {vllm_service_manager.get_base_urls()}")

        # Populate reference logprobs using the reference model
        with VLLMServiceManager(
            exp_path=exp_path,
            service_name="reference",
            model_name_or_path=cfg.model_path,
            port=8180,
            verbose=True,
            cuda_device=",".join([str(i) for i in range(torch.cuda.device_count())]),
            **(dict(cfg.vllm_config.vllm_kwargs) | dict(cfg.vllm_config.ref_vllm_kwargs)),
        ) as vllm_service_manager:
            logger.info(f"Reference servers at {vllm_service_manager.get_base_urls()}")
        iteration += 1


if __name__ == "__main__":
    main()
