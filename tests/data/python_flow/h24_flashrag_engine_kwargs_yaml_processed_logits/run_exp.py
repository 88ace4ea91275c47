# Imitates RUC-NLPIR/FlashRAG examples/quick_start/simple_pipeline.py: Config from a YAML file
# beside the script plus a dict, the generator built from it and asked for answers.
from flashrag.config import Config
from flashrag.generator.generator import VLLMGenerator

config = Config("my_config.yaml", config_dict={"data_dir": "dataset/", "framework": "vllm"})
generator = VLLMGenerator(config)
print(generator.generate(["Who wrote Hamlet?"]))
