"""GRPO on NuminaMath-TIR, the way open-r1's src/open_r1/grpo.py is written: every setting from a
recipe YAML read by TrlParser."""

import re
from dataclasses import dataclass, field

from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer, ModelConfig, TrlParser, get_peft_config


@dataclass
class GRPOScriptArguments:
    dataset_name: str = field(default="AI-MO/NuminaMath-TIR")
    dataset_train_split: str = field(default="train")
    system_prompt: str | None = field(default=None)


def format_reward(completions, **kwargs):
    pattern = r"^<think>\n.*?\n</think>\n<answer>\n.*?\n</answer>$"
    return [1.0 if re.match(pattern, c[0]["content"], re.DOTALL) else 0.0 for c in completions]


def make_conversation(example, system_prompt):
    prompt = [{"role": "user", "content": example["problem"]}]
    if system_prompt:
        prompt.insert(0, {"role": "system", "content": system_prompt})
    return {"prompt": prompt}


def main(script_args, training_args, model_args):
    dataset = load_dataset(script_args.dataset_name, split=script_args.dataset_train_split)
    dataset = dataset.map(make_conversation, fn_kwargs={"system_prompt": script_args.system_prompt})
    trainer = GRPOTrainer(
        model=model_args.model_name_or_path,
        reward_funcs=[format_reward],
        args=training_args,
        train_dataset=dataset,
        peft_config=get_peft_config(model_args),
    )
    trainer.train()
    trainer.save_model(training_args.output_dir)


if __name__ == "__main__":
    parser = TrlParser((GRPOScriptArguments, GRPOConfig, ModelConfig))
    script_args, training_args, model_args = parser.parse_args_and_config()
    main(script_args, training_args, model_args)
