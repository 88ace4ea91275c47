# Imitates facebookresearch/fairseq2's online finetuning recipe wiring (_online_dpo.py's vllm_actor config handed to RemoteVllmModelHandler)
import ray

from fairseq2.recipes.lm._online_finetune._remote_vllm import (
    RemoteVllmModelHandler,
    VllmRayActorConfig,
)


def main():
    ray.init(address="auto", namespace="vllm_workers")
    actor_config = VllmRayActorConfig(
        ray_actor_name="vllm_policy",
        vllm_sampling_params={"n": 4, "temperature": 1.0, "top_k": 20, "max_tokens": 1024},
    )
    vllm_model = RemoteVllmModelHandler().create(actor_config)
    prompts = [[151644, 872, 198, 3838, 374, 220, 17, 10, 17, 30]]
    rollouts = vllm_model.rollout_from_model(prompts)
    print(rollouts[0].outputs[0].text)


if __name__ == "__main__":
    main()
