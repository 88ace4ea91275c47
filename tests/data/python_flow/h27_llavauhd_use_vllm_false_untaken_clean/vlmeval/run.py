# Imitates thunlp/LLaVA-UHD VLMEvalKit/run.py (model = supported_VLM[model_name]() then model.generate).
from config import supported_VLM

if __name__ == "__main__":
    model = supported_VLM["Qwen2-VL-7B-Instruct"]()
    print(model.generate("Describe the picture.", dataset="MMBench_DEV_EN"))
