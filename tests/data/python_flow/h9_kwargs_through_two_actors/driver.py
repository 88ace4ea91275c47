# Imitates allenai/open-instruct open_instruct/vllm_utils.py create_vllm_engines, with a launcher actor between the driver and the engine actor
import ray
import vllm

from engine_actor import EngineActor


@ray.remote
class Launcher:
    def __init__(self, **engine_kwargs):
        self.engine = EngineActor.options(num_gpus=1).remote(**engine_kwargs)

    def generate(self, prompts, params):
        return ray.get(self.engine.generate.remote(prompts, params))


def main() -> None:
    ray.init()
    engine_kwargs = {
        "model": "allenai/OLMo-2-1124-7B-Instruct",
        "return_sampling_mask": True,  # expect: RPL003
        "enable_prefix_caching": True,
    }
    launcher = Launcher.remote(**engine_kwargs)
    params = vllm.SamplingParams(temperature=1.0, top_k=50, max_tokens=256)
    print(ray.get(launcher.generate.remote(["What is RLVR?"], params)))


if __name__ == "__main__":
    main()
