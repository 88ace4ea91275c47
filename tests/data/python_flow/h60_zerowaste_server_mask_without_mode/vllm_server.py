# Imitates RD211/zero-waste-GRPO vllm_server.py (hydra main builds SimplevLLMInference and SamplingParams from cfg.model).
import os
from typing import List

import hydra
import uvicorn
from fastapi import FastAPI
from hydra.core.config_store import ConfigStore
from omegaconf import OmegaConf
from pydantic import BaseModel
from vllm import SamplingParams

from configs.cfg import RLModelTrainingConfig
from vllm_inference import SimplevLLMInference

cs = ConfigStore.instance()
cs.store(name="config", node=RLModelTrainingConfig)

app = FastAPI()
vllm_inference = None
sampling_params = None


class GenerateRequest(BaseModel):
    problems: List[str]
    meta: dict = {}


@app.post("/generate")
def generate(request: GenerateRequest):
    generations = vllm_inference.run_batch(
        messages=request.problems,
        sampling_params=sampling_params,
    )
    return {"generations": [g.outputs[0].text for g in generations]}


@app.post("/shutdown")
def shutdown():
    vllm_inference.cleanup()
    os._exit(0)


@hydra.main(config_path="configs", version_base=None)
def main(cfg: RLModelTrainingConfig):
    global vllm_inference, sampling_params

    default_config = OmegaConf.structured(RLModelTrainingConfig)
    cfg = OmegaConf.merge(default_config, cfg)

    model_config = cfg.model
    vllm_inference = SimplevLLMInference(
        model_path=model_config.model_name_or_path,
        gpus_per_instance=model_config.number_of_gpus_per_instance,
        gpu_memory_utilization=model_config.gpu_memory_utilization,
        max_model_len=model_config.max_length * 2,
        max_num_seqs=model_config.max_num_seqs,
        enforce_eager=model_config.enforce_eager,
        use_v0=model_config.use_v0,
    )
    sampling_params = SamplingParams(
        temperature=model_config.temperature,
        top_k=model_config.top_k,
        top_p=model_config.top_p,
        max_tokens=model_config.max_length,
        min_tokens=model_config.max_length,
    )

    uvicorn.run(app, host="0.0.0.0", port=cfg.server_port)


if __name__ == "__main__":
    main()
