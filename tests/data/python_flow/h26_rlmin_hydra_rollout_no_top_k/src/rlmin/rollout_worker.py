# Imitates MJ10/rlmin src/rlmin/rollout_worker.py (a Hydra main building LLM(...) and one SamplingParams from cfg.rollout);
# the user's edit turns replay on for the rollout engine.
from __future__ import annotations

import json
from pathlib import Path

import hydra
from omegaconf import DictConfig, OmegaConf
from vllm import LLM, SamplingParams


@hydra.main(config_path="configs", config_name="config", version_base=None)
def main(cfg: DictConfig) -> None:
    print(OmegaConf.to_yaml(cfg))
    llm = LLM(
        model=cfg.rollout.model,
        tensor_parallel_size=cfg.rollout.tensor_parallel_size,
        gpu_memory_utilization=cfg.rollout.gpu_memory_utilization,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    params = SamplingParams(  # expect: RPL102
        max_tokens=cfg.rollout.max_tokens,
        temperature=cfg.rollout.temperature,
        top_p=cfg.rollout.top_p,
    )
    prompts = ["What is 7 * 6?"] * cfg.rollout.batch_size
    outputs = llm.generate(prompts, params)
    out_dir = Path(cfg.buffer.dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with (out_dir / "rollout.jsonl").open("w", encoding="utf-8") as f:
        for prompt, out in zip(prompts, outputs):
            f.write(json.dumps({"prompt": prompt, "response": out.outputs[0].text}) + "\n")


if __name__ == "__main__":
    main()
