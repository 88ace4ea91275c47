# Imitates IBM/ai-atlas-nexus: the README's "inference engine" usage with VLLMInferenceEngine in
# offline mode (src/ai_atlas_nexus/blocks/inference/vllm.py), written as an example script.
from ai_atlas_nexus.blocks.inference import VLLMInferenceEngine
from ai_atlas_nexus.blocks.inference.params import VLLMInferenceEngineParams

USECASE = (
    "Generate personalized, relevant responses, recommendations, and summaries of claims for "
    "customers to support agents to enhance their interactions with customers."
)

inference_engine = VLLMInferenceEngine(
    model_name_or_path="ibm-granite/granite-3.3-2b-instruct",
    parameters=VLLMInferenceEngineParams(
        max_tokens=1000,
        temperature=0.7,
        top_k=50,
    ),
)

results = inference_engine.chat(
    messages=[
        {
            "role": "user",
            "content": f"List the AI risks of this use case, one per line: {USECASE}",
        }
    ],
    verbose=False,
)
for result in results:
    print(result.prediction)
