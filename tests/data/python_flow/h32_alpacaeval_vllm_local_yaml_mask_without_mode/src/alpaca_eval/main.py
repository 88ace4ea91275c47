from pathlib import Path

import datasets
import fire
import yaml

from . import decoders

MODELS_CONFIG_DIR = Path(__file__).parent / "models_configs"


def evaluate_from_model(model_configs, max_instances=None):
    """Evaluate a model from HuggingFace or an API provider, given its config directory."""
    with open(MODELS_CONFIG_DIR / model_configs / "configs.yaml") as f:
        configs = yaml.safe_load(f)
    model_configs = list(configs.values())[0]

    df_dataset = datasets.load_dataset("tatsu-lab/alpaca_eval", "alpaca_eval")["eval"].to_pandas()
    if max_instances is not None:
        df_dataset = df_dataset[:max_instances]

    prompt_template = (MODELS_CONFIG_DIR / model_configs["prompt_template"]).read_text()
    prompts = [prompt_template.format(instruction=x) for x in df_dataset["instruction"]]

    fn_completions = decoders.get_fn_completions(model_configs["fn_completions"])
    completions = fn_completions(prompts=prompts, **model_configs["completions_kwargs"])["completions"]
    df_dataset["output"] = completions
    return df_dataset


ALL_FUNCTIONS = {
    "evaluate_from_model": evaluate_from_model,
}


def main():
    fire.Fire(ALL_FUNCTIONS)


if __name__ == "__main__":
    main()
