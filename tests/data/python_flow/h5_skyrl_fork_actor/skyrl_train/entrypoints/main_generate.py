# Imitates NovaSky-AI/SkyRL/skyrl-train/skyrl_train/entrypoints/main_generate.py (the fork's own entry point that starts the engines)
import ray

from skyrl_train.inference_engines.ray_wrapped_inference_engine import create_ray_wrapped_inference_engines


def main() -> None:
    ray.init()
    engines = create_ray_wrapped_inference_engines(
        num_inference_engines=2,
        tensor_parallel_size=1,
        model_dtype="bfloat16",
        pretrain="Qwen/Qwen2.5-1.5B-Instruct",
        seed=42,
        gpu_memory_utilization=0.8,
        max_num_batched_tokens=8192,
        max_num_seqs=1024,
    )
    print(len(engines))


if __name__ == "__main__":
    main()
