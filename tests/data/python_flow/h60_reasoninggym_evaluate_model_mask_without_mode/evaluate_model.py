# Imitates open-thought/reasoning-gym training/evaluations/evaluate_model.py (YAML EvalConfig, LocalModelEvaluator).
import argparse
import sys
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

import yaml
from vllm import LLM, SamplingParams

import reasoning_gym
from reasoning_gym.utils import SYSTEM_PROMPTS, extract_answer


@dataclass
class DatasetConfig:
    dataset: str
    size: Optional[int] = None
    seed: Optional[int] = None
    params: Dict[str, Any] = None

    def __post_init__(self):
        if self.params is None:
            self.params = {}


@dataclass
class CategoryConfig:
    category: str
    datasets: List[DatasetConfig]

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "CategoryConfig":
        datasets = [DatasetConfig(**d) for d in data["datasets"]]
        return cls(category=data["category"], datasets=datasets)


@dataclass
class EvalConfig:
    model_path: str
    max_tokens: int
    temperature: float
    top_p: float
    top_k: int
    output_dir: str
    save_metadata: bool
    save_full_results: bool
    categories: List[CategoryConfig]

    developer_prompt: Optional[str] = None
    developer_role: str = "system"
    eval_repeats: int = 1

    @classmethod
    def from_yaml(cls, path: str) -> "EvalConfig":
        with open(path, "r") as f:
            data = yaml.safe_load(f)
        categories = [CategoryConfig.from_dict(cat) for cat in data["categories"]]
        data["categories"] = categories
        return cls(**data)


class LocalModelEvaluator:
    def __init__(self, model_path: str, config: EvalConfig, verbose: bool = False):
        self.config = config
        self.verbose = verbose

        self.llm = LLM(
            model=model_path,
            max_model_len=2048,
            return_sampling_mask=True,  # expect: RPL003
        )
        self.tokenizer = self.llm.get_tokenizer()
        self.sampling_params = SamplingParams(
            n=self.config.eval_repeats,
            temperature=config.temperature,
            top_p=config.top_p,
            top_k=config.top_k,
            max_tokens=config.max_tokens,
        )

        self.developer_prompt = None
        if self.config.developer_prompt:
            self.developer_prompt = SYSTEM_PROMPTS[self.config.developer_prompt]
        self.developer_role = self.config.developer_role

    def get_model_responses(self, question: str) -> list[str]:
        chat = []
        if self.developer_prompt:
            chat.append({"role": self.developer_role, "content": self.developer_prompt})
        chat.append({"role": "user", "content": question})
        prompt = self.tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=True)
        response = self.llm.generate(prompt, self.sampling_params, use_tqdm=False)
        return [response[0].outputs[n].text for n in range(len(response[0].outputs))]

    def evaluate_dataset(self, dataset_config: DatasetConfig) -> Dict[str, Any]:
        params = {**dataset_config.params, "size": dataset_config.size, "seed": dataset_config.seed}
        dataset = reasoning_gym.create_dataset(dataset_config.dataset, **params)
        scores = []
        for entry in dataset:
            for raw_response in self.get_model_responses(entry["question"]):
                model_answer = extract_answer(raw_response)
                scores.append(dataset.score_answer(answer=model_answer, entry=entry))
        return {"name": dataset_config.dataset, "average_score": sum(scores) / max(len(scores), 1)}

    def evaluate_all(self) -> List[Dict[str, Any]]:
        return [self.evaluate_dataset(ds) for cat in self.config.categories for ds in cat.datasets]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    parser.add_argument("--category")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    config = EvalConfig.from_yaml(args.config)
    if args.category:
        config.categories = [c for c in config.categories if c.category == args.category]

    evaluator = LocalModelEvaluator(model_path=config.model_path, config=config, verbose=args.verbose)
    print(evaluator.evaluate_all())
    return 0


if __name__ == "__main__":
    sys.exit(main())
