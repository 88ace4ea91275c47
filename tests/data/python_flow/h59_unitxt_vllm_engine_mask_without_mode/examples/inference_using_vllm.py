# Imitates IBM/unitxt examples/ (an inference example with the VLLMInferenceEngine of
# src/unitxt/inference.py), trimmed to building the engine and inferring on chat instances.
from unitxt.inference import VLLMInferenceEngine

dataset = [
    {"source": [{"role": "user", "content": "What is the capital of Texas?"}]},
    {"source": [{"role": "user", "content": "What is the color of the sky?"}]},
]

inference_model = VLLMInferenceEngine(
    model="Qwen/Qwen2.5-0.5B-Instruct",
    max_tokens=256,
    temperature=0.7,
    top_k=50,
)

predictions = inference_model.infer(dataset)
for prediction in predictions:
    print(prediction)
