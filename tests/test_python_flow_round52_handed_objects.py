"""What held-out round 52 (h52_drpo_world_model_greedy_base_model) made the value flow follow: an object of
an engine's wrapper class (`VLLMModel`, whose `generate` builds the request from its parameters) handed to
another object of the tree (`PromptAlignWorldModel(base_model=...)`) or to a function, its request method
called there on what holds it (`self.base_model.generate(prompts=..., temperature=0)`), also from a method
nothing in the tree calls when the object is handed to a library (llm-reasoners' `Reasoner` calls `step`).
It stays silent when the tree keeps the object and only asks its other methods, when the call cannot bind
the method (another model's API: `generate(user_prompt=...)`), and on a path the defaults do not take."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main


def run(tree: Path) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tree)])
    return json.loads(out.getvalue())


def check(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in run(tmp_path))


def row(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if fragment in line)


WRAPPER = """from vllm import LLM, SamplingParams


class VLLMModel:
    def __init__(self, model_name, **kwargs):
        self.model = LLM(model=model_name, **kwargs)

    def generate(self, prompts, temperature: float = 0.7, top_p: float = 0.95, top_k: int = 20, max_new_tokens: int = 256, **kwargs):
        params = SamplingParams(temperature=temperature, top_p=top_p, top_k=top_k, max_tokens=max_new_tokens, **kwargs)
        return self.model.generate(prompts, sampling_params=params)
"""

WORLD = """from reasoners import WorldModel


class PromptAlignWorldModel(WorldModel):
    def __init__(self, base_model, depth: int = 10, is_GPT=False):
        self.base_model = base_model
        self.depth = depth
        self.is_GPT = is_GPT

    def step(self, state, action):
        return state + [self._generate_output(action)], {{}}

    def is_terminal(self, state):
        return len(state) >= self.depth

    def _generate_output(self, prompt):
        if not self.is_GPT:
            return self.base_model.generate(prompts=prompt, temperature={temperature}, top_p=1)
        return self.base_model.generate(system_prompt="s", user_prompt=prompt, temperature=0, top_p=1)
"""

TRAIN = """import fire
from reasoners import Reasoner

from models import VLLMModel, OpenAIChatModel
from world_model import PromptAlignWorldModel


def run_prompt_align(base_model, depth: int = 16, is_GPT=False):
    world_model = PromptAlignWorldModel(base_model=base_model, depth=depth, is_GPT=is_GPT)
    {use}


def main(base_model_name: str = "mistralai/Mistral-7B-v0.1", base_model_family: str = "{family}", is_GPT=False):
    if base_model_family.lower() == "mistral":
        base_model = VLLMModel(model_name=base_model_name, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    elif base_model_family.lower() == "llama":
        base_model = VLLMModel(model_name=base_model_name)
    elif base_model_family.lower() == "gpt":
        is_GPT = True
        base_model = OpenAIChatModel(model_name=base_model_name)
    run_prompt_align(base_model=base_model, is_GPT=is_GPT)


if __name__ == "__main__":
    fire.Fire(main)
"""

OPENAI = """from openai import OpenAI


class OpenAIChatModel:
    def __init__(self, model_name):
        self.model_name = model_name
        self.client = OpenAI()

    def generate(self, user_prompt, system_prompt=None, temperature=0.7, top_p=0.95, **kwargs):
        return self.client.chat.completions.create(model=self.model_name, messages=[], temperature=temperature, top_p=top_p)
"""

HANDED = "return Reasoner(world_model=world_model)(['q'])"


def drpo(temperature: str = "0", use: str = HANDED, family: str = "mistral") -> dict[str, str]:
    return {
        "models/__init__.py": "from .vllm_model import VLLMModel\nfrom .openai_model import OpenAIChatModel\n",
        "models/vllm_model.py": WRAPPER,
        "models/openai_model.py": OPENAI,
        "world_model.py": WORLD.format(temperature=temperature),
        "train.py": TRAIN.format(use=use, family=family),
    }


def test_a_greedy_request_of_a_world_model_handed_to_a_library_reaches_the_wrapped_replay_engine(tmp_path: Path) -> None:
    files = drpo()
    greedy = row(files["world_model.py"], "prompts=prompt, temperature=0")
    assert check(tmp_path, files) == [("world_model.py", greedy, "RPL101")]


def test_the_same_request_sampled_stays_clean(tmp_path: Path) -> None:
    assert check(tmp_path, drpo(temperature="0.7")) == []


@pytest.mark.parametrize(
    "use",
    [
        "return world_model.is_terminal([])",  # kept, only asked another method: `step` never runs
        "while not world_model.is_terminal([]):\n        break",
    ],
)
def test_a_world_model_the_tree_keeps_and_never_steps_sends_nothing(tmp_path: Path, use: str) -> None:
    assert check(tmp_path, drpo(use=use)) == []


@pytest.mark.parametrize("family", ["gpt", "llama"])
def test_a_path_the_defaults_do_not_take_to_the_replay_engine_stays_silent(tmp_path: Path, family: str) -> None:
    assert check(tmp_path, drpo(family=family)) == []


def test_the_world_model_stepped_in_the_tree_is_read_the_same(tmp_path: Path) -> None:
    files = drpo(use="return world_model.step([], 'p')")
    greedy = row(files["world_model.py"], "prompts=prompt, temperature=0")
    assert check(tmp_path, files) == [("world_model.py", greedy, "RPL101")]


# one module: the wrapper's object given to a function, or stored by another class and asked there

ONE_MODULE = (
    WRAPPER
    + """

{holder}


def main():
    model = VLLMModel("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    {call}


main()
"""
)


@pytest.mark.parametrize(
    ("holder", "call"),
    [
        ("def ask(base_model):\n    return base_model.generate('x', temperature=0)", "ask(model)"),
        (
            "class Judge:\n    def __init__(self, llm):\n        self.llm = llm\n\n"
            "    def judge(self, prompt):\n        return self.llm.generate(prompt, temperature=0)",
            "Judge(model).judge('x')",
        ),
    ],
)
def test_a_wrapper_object_handed_on_in_its_module_reaches_the_engine(tmp_path: Path, holder: str, call: str) -> None:
    text = ONE_MODULE.format(holder=holder, call=call)
    assert check(tmp_path, {"run.py": text}) == [("run.py", row(text, "temperature=0)"), "RPL101")]


def test_a_call_that_cannot_bind_the_wrapper_method_sends_nothing(tmp_path: Path) -> None:
    holder = "def ask(base_model):\n    return base_model.generate(user_prompt='x', temperature=0)"  # `prompts` missing: TypeError
    assert check(tmp_path, {"run.py": ONE_MODULE.format(holder=holder, call="ask(model)")}) == []
