# Imitates stanford-oval/storm knowledge_storm/lm.py (VLLMClient, dspy's HFClientVLLM inlined)
import requests


class HFClientVLLM:
    def __init__(self, model, port, url="http://localhost", **kwargs):
        self.url = f"{url}:{port}"
        self.headers = {"Content-Type": "application/json"}
        self.kwargs = {"temperature": 0.0, "max_tokens": 150, "top_p": 1, "n": 1, **kwargs}
        self.kwargs["model"] = model


class VLLMClient(HFClientVLLM):
    """A wrapper class for dspy.HFClientVLLM."""

    def __init__(self, model, port, url="http://localhost", **kwargs):
        super().__init__(model=model, port=port, url=url, **kwargs)
        # Store additional kwargs for the generate method.
        self.kwargs = {**self.kwargs, **kwargs}

    def _generate(self, prompt, **kwargs):
        kwargs = {**self.kwargs, **kwargs}
        payload = {
            "prompt": prompt,
            **kwargs,
        }
        response = requests.post(f"{self.url}/v1/completions", json=payload, headers=self.headers)  # expect: RPL301
        return [c["text"] for c in response.json()["choices"]]
