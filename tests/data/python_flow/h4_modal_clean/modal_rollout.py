# Imitates modal-labs/modal-examples/06_gpu_and_ml/llm-serving/vllm_inference.py
import modal

MODEL_NAME = "Qwen/Qwen3-8B"
vllm_image = modal.Image.debian_slim(python_version="3.12").uv_pip_install("vllm==0.34.0")
app = modal.App("replay-rollout")


def engine_kwargs(max_len: int = 8192) -> dict:
    kwargs = {"max_model_len": max_len, "return_sampling_mask": True}
    kwargs["logprobs_mode"] = "processed_logprobs"
    return kwargs


@app.cls(image=vllm_image, gpu="H100:1")
class Rollout:
    @modal.enter()
    def load(self):
        from vllm import LLM, SamplingParams

        self.llm = LLM(MODEL_NAME, **engine_kwargs())
        self.params = SamplingParams(temperature=0.9, top_k=40, max_tokens=2048)

    @modal.method()
    def generate(self, prompts: list[str]):
        return [out.outputs[0].text for out in self.llm.generate(prompts, self.params)]
