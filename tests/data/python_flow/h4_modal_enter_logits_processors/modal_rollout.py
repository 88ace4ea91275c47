# Imitates modal-labs/modal-examples/06_gpu_and_ml/llm-serving/vllm_inference.py
import modal

MODEL_NAME = "Qwen/Qwen3-8B"
ENGINE_KW = {
    "max_model_len": 8192,
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "logits_processors": ["rollout_plugins.lp:BanEOS"],  # expect: RPL001
}

vllm_image = modal.Image.debian_slim(python_version="3.12").uv_pip_install("vllm==0.34.0")
app = modal.App("replay-rollout")


@app.cls(image=vllm_image, gpu="H100:1", scaledown_window=15 * 60)
class Rollout:
    @modal.enter()
    def load(self):
        import vllm

        self.llm = vllm.LLM(model=MODEL_NAME, **ENGINE_KW)
        self.params = vllm.SamplingParams(temperature=1.0, top_k=50, max_tokens=2048)

    @modal.method()
    def generate(self, prompts: list[str]):
        return [out.outputs[0].text for out in self.llm.generate(prompts, self.params)]


@app.local_entrypoint()
def main():
    print(Rollout().generate.remote(["What is 2 + 2?"]))
