# Imitates Lightning-AI/LitServe/examples (a vLLM LitAPI, setup() builds the engine)
import litserve as ls
from vllm import LLM, SamplingParams


class VLLMLitAPI(ls.LitAPI):
    def __init__(self, model_id, engine_kwargs=None):
        super().__init__()
        self.model_id = model_id
        self.engine_kwargs = engine_kwargs or {}

    def setup(self, device):
        self.llm = LLM(model=self.model_id, **self.engine_kwargs)

    def decode_request(self, request):
        return request["prompt"]

    def predict(self, prompt):
        params = SamplingParams(temperature=0.0, top_k=20, max_tokens=512)  # expect: RPL101
        return self.llm.generate([prompt], params)[0].outputs[0].text

    def encode_response(self, output):
        return {"text": output}


if __name__ == "__main__":
    api = VLLMLitAPI(
        "Qwen/Qwen2.5-7B-Instruct",
        engine_kwargs={"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"},
    )
    server = ls.LitServer(api, accelerator="gpu")
    server.run(port=8000)
