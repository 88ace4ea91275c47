# Imitates stanford-oval/storm knowledge_storm/lm.py (VLLMClient, dspy's HFClientVLLM inlined)
import requests


class HFClientVLLM:
    def __init__(self, model, port, url="http://localhost", **kwargs):
        self.url = f"{url}:{port}"
        self.headers = {"Content-Type": "application/json"}
        self.kwargs = {"temperature": 0.0, "max_tokens": 150, "top_p": 1, "n": 1, **kwargs}
        self.kwargs["model"] = model


class VLLMClient(HFClientVLLM):
    def __init__(self, model, port, model_type="chat", url="http://localhost", **kwargs):
        super().__init__(model=model, port=port, url=url, **kwargs)
        self.model_type = model_type

    def _generate(self, prompt, **kwargs):
        kwargs = {**self.kwargs, **kwargs}
        payload = {"messages": [{"role": "user", "content": prompt}], **kwargs}
        response = requests.post(f"{self.url}/v1/chat/completions", json=payload, headers=self.headers)  # expect: RPL301
        return [c["message"]["content"] for c in response.json()["choices"]]
