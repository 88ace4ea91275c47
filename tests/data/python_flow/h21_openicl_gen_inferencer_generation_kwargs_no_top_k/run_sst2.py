# Imitates Shark-NLP/OpenICL's README quick start (DatasetReader, PromptTemplate, retriever, inferencer).
from openicl.icl_gen_inferencer import VLLMGenInferencer

inferencer = VLLMGenInferencer(
    model_name="meta-llama/Llama-2-7b-hf",
    generation_kwargs={"temperature": 0.9, "top_p": 0.95, "max_tokens": 16},
)
print(inferencer.inference(["Review: a gripping film. Sentiment:"]))
