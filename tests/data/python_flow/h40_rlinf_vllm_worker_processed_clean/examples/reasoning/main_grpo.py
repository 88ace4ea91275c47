# Imitates RLinf/RLinf examples/reasoning/main_grpo.py with rlinf/workers/rollout/vllm/vllm_worker.py,
# rlinf/workers/rollout/utils.py, examples/reasoning/run_main_grpo_math.sh and
# examples/reasoning/config/math/qwen2.5-1.5b-single-gpu.yaml (hydra config, vLLM rollout worker), trimmed.
import json

import hydra
import torch.multiprocessing as mp
from omegaconf.omegaconf import OmegaConf

from rlinf.config import validate_cfg
from rlinf.runners.reasoning_runner import ReasoningRunner
from rlinf.scheduler import Cluster
from rlinf.utils.placement import ModelParallelComponentPlacement
from rlinf.workers.rollout.utils import get_rollout_backend_worker

"""Script to start GRPO training"""
mp.set_start_method("spawn", force=True)


@hydra.main(version_base="1.1")
def main(cfg) -> None:
    cfg = validate_cfg(cfg)
    print(json.dumps(OmegaConf.to_container(cfg, resolve=True), indent=2))

    cluster = Cluster(cluster_cfg=cfg.cluster)
    component_placement = ModelParallelComponentPlacement(cfg, cluster)

    rollout_worker_cls = get_rollout_backend_worker(cfg, component_placement)

    # Rollout group
    rollout_placement_strategy = component_placement.get_strategy("rollout")
    rollout_group = rollout_worker_cls.create_group(cfg, component_placement).launch(
        cluster,
        name=cfg.rollout.group_name,
        placement_strategy=rollout_placement_strategy,
    )

    runner = ReasoningRunner(
        cfg=cfg,
        placement=component_placement,
        rollout=rollout_group,
    )

    runner.init_workers()
    runner.run()


if __name__ == "__main__":
    main()
