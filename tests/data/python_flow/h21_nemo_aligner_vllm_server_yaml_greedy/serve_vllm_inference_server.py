# Imitates NVIDIA/NeMo-Aligner examples/nlp/gpt/serve_vllm_inference_server.py (worker_process with a
# VLLMInferenceServer whose generate(batch_tokens, sampling_params: dict) reads the dict with .get defaults),
# fed by the user from gpt_generation.yaml instead of the Flask route, with replay on.
import os

import yaml

os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"

CONF = os.path.join(os.path.dirname(__file__), "conf", "gpt_generation.yaml")


def worker_process(load_path, tp, batch_tokens, sampling_cfg):
    from vllm import LLM, SamplingParams, TokensPrompt

    class VLLMInferenceServer:
        def __init__(self):
            self.llm = None

        def start(self, path, tp):
            self.llm = LLM(
                model=path,
                tensor_parallel_size=tp,
                generation_config="auto",
                enforce_eager=False,
                gpu_memory_utilization=0.94,
                trust_remote_code=True,
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
            )

        def generate(self, batch_tokens, sampling_params: dict):
            sampling_params = SamplingParams(
                temperature=sampling_params.get("temperature", 1.0),
                top_p=sampling_params.get("top_p", 1.0),
                top_k=sampling_params.get("top_k", -1),
                logprobs=0,
                max_tokens=sampling_params.get("max_tokens", 3072),
            )
            prompts = [TokensPrompt(prompt_token_ids=tok_seq) for tok_seq in batch_tokens]
            return self.llm.generate(prompts, sampling_params, use_tqdm=True)

    server = VLLMInferenceServer()
    server.start(load_path, tp)
    return server.generate(batch_tokens, sampling_cfg)


if __name__ == "__main__":
    with open(CONF) as f:
        cfg = yaml.safe_load(f)
    outputs = worker_process(
        cfg["vllm"]["checkpoint_path"],
        cfg["vllm"]["tp"],
        [[1, 2, 3]],
        cfg["model"]["generation"]["sampling_params"],
    )
    print(outputs[0].outputs[0].token_ids)
