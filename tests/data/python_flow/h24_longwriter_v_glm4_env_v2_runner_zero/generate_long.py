# Imitates THU-KEG/LongWriter-V inference scripts: the local model got by family and size, asked
# for a long answer with the sampling keywords forwarded to SamplingParams.
from inference.local.glm import get_model

model = get_model("9b", tensor_parallel_size=1)
print(model.inference_vllm("Write a 5000-word essay about the picture.", temperature=0.5, top_k=50, max_tokens=8192))
