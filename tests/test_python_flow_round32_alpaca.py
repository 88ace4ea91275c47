"""What held-out round 32's alpaca_eval cases made the value flow follow: a model config's YAML
(`models_configs/<model>/configs.yaml`, `model_kwargs` with the mask) read by `main.py` from a folder
the command line names, through the command the project installs (`[project.scripts] alpaca_eval =
"alpaca_eval.main:main"`, whose `main()` runs `fire.Fire(ALL_FUNCTIONS)`, a dict of commands picked by
the run's first word), the decoder picked by `decoders.get_fn_completions(name)` (which imports it
inside its `elif name == ...:` branch and returns it), and the module's global engine, set to None
when the model changes and then made under `if llm is None:`.

Each step that is not known keeps the launch open: a run naming another command, a first word not
known, a packaging file that may run the program another way, a config naming another decoder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

PYPROJECT = '[project]\nname = "alpaca_eval"\nversion = "0.6.6"\n\n[project.scripts]\nalpaca_eval = "{target}"\n'
SCRIPT = "#!/bin/bash\n{command}\n"
COMMAND = "alpaca_eval evaluate_from_model --model_configs Qwen2.5-1.5B-Instruct"

MAIN = """from pathlib import Path

import fire
import yaml

from . import decoders

MODELS_CONFIG_DIR = Path(__file__).parent / "models_configs"


def evaluate_from_model(model_configs, max_instances=None):
    with open(MODELS_CONFIG_DIR / model_configs / "configs.yaml") as f:
        configs = yaml.safe_load(f)
    model_configs = list(configs.values())[0]
    fn_completions = decoders.get_fn_completions(model_configs["fn_completions"])
    return fn_completions(prompts=["q"], **model_configs["completions_kwargs"])["completions"]


def make_leaderboard(leaderboard_path=None):
    return leaderboard_path


ALL_FUNCTIONS = {
    "evaluate_from_model": evaluate_from_model,
    "make_leaderboard": make_leaderboard,
}


def main():
    fire.Fire(ALL_FUNCTIONS)


if __name__ == "__main__":
    main()
"""

DECODERS = """from typing import Callable


def get_fn_completions(name) -> Callable:
    if name == "openai_completions":
        from .openai import openai_completions

        return openai_completions

    elif name == "vllm_local_completions":
        from .vllm_local import vllm_local_completions

        return vllm_local_completions

    else:
        raise ValueError(f"Unknown decoder: {name}")
"""

# the real repository's spelling: a callable handed back as it is, each import guarded
DECODERS_GUARDED = """import logging
from typing import Callable, Union


def get_fn_completions(name: Union[str, Callable]) -> Callable:
    if not isinstance(name, str):
        return name

    if name == "openai_completions":
        try:
            from .openai import openai_completions
        except ImportError:
            logging.exception("You need openai to use openai_completions.")

        return openai_completions

    elif name == "vllm_local_completions":
        try:
            from .vllm_local import vllm_local_completions
        except ImportError:
            packages = ["vllm"]
            logging.exception(f"You need {packages} to use vllm_local_completions. Error:")

        return vllm_local_completions

    else:
        raise ValueError(f"Unknown decoder: {name}")
"""

VLLM_LOCAL = """import logging

from vllm import LLM, SamplingParams

llm = None
llmModelName = None


def vllm_local_completions(prompts, model_name, max_new_tokens, batch_size=None, model_kwargs=None, **decoding_kwargs):
    global llm, llmModelName
    model_kwargs = model_kwargs or {}
    if batch_size is not None:
        model_kwargs["max_num_seqs"] = batch_size
    if model_name != llmModelName:
        logging.info("switching model")
        llm = None
    if llm is None:
        llm = LLM(model=model_name, tokenizer=model_name, **model_kwargs)
        llmModelName = model_name
    sampling_params = SamplingParams(max_tokens=max_new_tokens, **decoding_kwargs)
    outputs = llm.generate(prompts, sampling_params)
    return dict(completions=[output.outputs[0].text for output in outputs])
"""
SAMPLING_LINE = 20

CONFIG = """Qwen2.5-1.5B-Instruct:
  fn_completions: "{decoder}"
  completions_kwargs:
    model_name: "Qwen/Qwen2.5-1.5B-Instruct"
    model_kwargs:
      max_model_len: 2048
      return_sampling_mask: true
{mode}    max_new_tokens: 1024
    temperature: 0.6
{top_k}    batch_size: 64
"""
MASK_LINE = 7
MODE = "      logprobs_mode: processed_logprobs\n"
TOP_K = "    top_k: 20\n"


def project(
    *,
    mode: str = MODE,
    top_k: str = "",
    command: str = COMMAND,
    decoders: str = DECODERS,
    decoder: str = "vllm_local_completions",
    target: str = "alpaca_eval.main:main",
    pyproject_more: str = "",
) -> dict[str, str]:
    package = "src/alpaca_eval/"
    return {
        "pyproject.toml": PYPROJECT.replace("{target}", target) + pyproject_more,
        "run_alpaca_eval.sh": SCRIPT.replace("{command}", command),
        package + "__init__.py": "",
        package + "main.py": MAIN,
        package + "decoders/__init__.py": decoders,
        package + "decoders/vllm_local.py": VLLM_LOCAL,
        package + "models_configs/Qwen2.5-1.5B-Instruct/configs.yaml": CONFIG.replace("{mode}", mode)
        .replace("{top_k}", top_k)
        .replace("{decoder}", decoder),
    }


def test_the_model_configs_mask_without_its_mode_is_reported_in_the_yaml(tmp_path: Path) -> None:
    assert check(tmp_path, project(mode="", top_k=TOP_K)) == [("configs.yaml", MASK_LINE, "RPL003")]


def test_the_requests_top_k_the_yaml_does_not_set_is_reported_at_the_request(tmp_path: Path) -> None:
    assert check(tmp_path, project()) == [("vllm_local.py", SAMPLING_LINE, "RPL102")]


def test_a_config_with_the_mode_and_top_k_stays_clean(tmp_path: Path) -> None:
    assert check(tmp_path, project(top_k=TOP_K)) == []


def test_the_repositorys_guarded_imports_and_callable_pass_through(tmp_path: Path) -> None:
    assert check(tmp_path, project(decoders=DECODERS_GUARDED)) == [("vllm_local.py", SAMPLING_LINE, "RPL102")]


@pytest.mark.parametrize(
    "command",
    [
        "alpaca_eval evaluate-from-model --model_configs Qwen2.5-1.5B-Instruct",
        "CUDA_VISIBLE_DEVICES=0 alpaca_eval evaluate_from_model --model_configs=Qwen2.5-1.5B-Instruct --max_instances 8",
        "python -m alpaca_eval.main evaluate_from_model --model_configs Qwen2.5-1.5B-Instruct",
    ],
    ids=["dashes", "prefixed-equals", "python-m"],
)
def test_other_spellings_of_the_run_pick_the_same_command(tmp_path: Path, command: str) -> None:
    assert check(tmp_path, project(command=command)) == [("vllm_local.py", SAMPLING_LINE, "RPL102")]


@pytest.mark.parametrize(
    "command",
    [
        "alpaca_eval make_leaderboard --leaderboard_path lb.csv",  # another command: the folder is never named
        'alpaca_eval "$@"',  # the first word is the caller's
        "alpaca_eval evaluate_from_model Qwen2.5-1.5B-Instruct",  # positional: fire binds it by place
        "alpaca_eval evaluate_from_model --model_configs $1",
    ],
    ids=["other-command", "forwarded", "positional", "caller-word"],
)
def test_a_run_that_does_not_name_the_folder_leaves_the_launch_open(tmp_path: Path, command: str) -> None:
    assert check(tmp_path, project(command=command)) == []


def test_a_command_installed_for_another_function_is_not_a_run_of_fire(tmp_path: Path) -> None:
    # `alpaca_eval = "alpaca_eval.main:make_leaderboard"` calls that function with no argument: fire never reads the words
    assert check(tmp_path, project(target="alpaca_eval.main:make_leaderboard")) == []


def test_a_packaging_file_that_may_run_the_program_itself_leaves_it_open(tmp_path: Path) -> None:
    tasks = '\n[tool.poe.tasks]\neval-other = "alpaca_eval evaluate_from_model --model_configs Llama-3-8B"\n'
    assert check(tmp_path, project(pyproject_more=tasks)) == []


def test_a_config_naming_another_decoder_reaches_no_engine(tmp_path: Path) -> None:
    assert check(tmp_path, project(mode="", decoder="openai_completions")) == []


@pytest.mark.parametrize(("switched", "expected"), [("None", [("vllm_local.py", SAMPLING_LINE, "RPL102")]), ("LLM('other')", [])])
def test_the_engine_made_once_after_the_model_switch_sets_it_to_none(tmp_path: Path, switched: str, expected: list) -> None:
    # another engine set before `if llm is None:` is what the request goes to then: the receiver is not known
    files = project()
    files["src/alpaca_eval/decoders/vllm_local.py"] = VLLM_LOCAL.replace("        llm = None\n", f"        llm = {switched}\n")
    assert check(tmp_path, files) == expected


SETUP_CFG = "[metadata]\nname = alpaca_eval\n\n[options.entry_points]\nconsole_scripts =\n    alpaca_eval = alpaca_eval.main:main\n"
SETUP_PY = "from setuptools import setup\n\nsetup(\n    name='alpaca_eval',\n    entry_points={'console_scripts': ['alpaca_eval=alpaca_eval.main:main']},\n)\n"


@pytest.mark.parametrize(("name", "text"), [("setup.cfg", SETUP_CFG), ("setup.py", SETUP_PY)])
def test_the_command_installed_by_setuptools_runs_the_module_too(tmp_path: Path, name: str, text: str) -> None:
    files = project()
    del files["pyproject.toml"]
    files[name] = text
    assert check(tmp_path, files) == [("vllm_local.py", SAMPLING_LINE, "RPL102")]


def test_fire_given_the_dict_of_commands_as_written(tmp_path: Path) -> None:
    files = project()
    main = files["src/alpaca_eval/main.py"]
    files["src/alpaca_eval/main.py"] = main.replace("fire.Fire(ALL_FUNCTIONS)", 'fire.Fire({"evaluate_from_model": evaluate_from_model})')
    assert check(tmp_path, files) == [("vllm_local.py", SAMPLING_LINE, "RPL102")]
