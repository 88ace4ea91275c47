# Imitates Marker-Inc-Korea/AutoRAG autorag/nodes/generator/vllm.py (the project's generator YAML run module by module, as the Evaluator's node line does)
import yaml
import pandas as pd

from autorag.nodes.generator import SUPPORT_MODULES


def run_generator_node(config_path: str, qa_path: str):
	with open(config_path) as f:
		config = yaml.safe_load(f)
	prompts = pd.read_parquet(qa_path)["query"].tolist()
	results = {}
	for module in config["modules"]:
		module_type = module.pop("module_type")
		results[module_type] = SUPPORT_MODULES[module_type](prompts, **module)
	return results


if __name__ == "__main__":
	run_generator_node("config/generator.yaml", "data/qa.parquet")
