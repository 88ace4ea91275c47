"""What held-out round 18 (tests/data/python_flow/h18_*, its request and config cases) made the
value flow follow: a `setdefault` whose value sits on its own line, reported there (DeepSeek-Math's
`engine_kwargs.setdefault("logits_processors", [...])`); a module-level engine made once under
`if llm is None:` and read in a loop after it (alpaca_eval's `vllm_local_completions`); a
function's request that its `**kwargs` or tested parameters decide, read with the callers in the
modules near it that import it (the caller's dict without `top_k`); a function an engine is handed
to through a registry dict of functions and a package `__init__` that re-exports it
(search-and-learn's `APPROACHES[config.approach](x, config, llm)`); a config folder's YAML read by
the project's Python around it (Search-R1's `Path(__file__).resolve().parents[2] / "config"`).
Each stays silent where the tree does not decide: a value from the command line or a file outside
the tree, a registry key that picks another function, an engine made on some paths only."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# setdefault: the value's own line

SETDEFAULT = (
    "from vllm import LLM\n\n"
    "BASE = dict(return_sampling_mask=True, logprobs_mode='processed_logprobs')\n\n\n"
    "def engine_kwargs():\n"
    "    kw = dict(BASE)\n"
    "    kw['model'] = 'deepseek-ai/deepseek-math-7b-rl'\n"
    "{write}"
    "    return kw\n\n\n"
    "llm = LLM(**engine_kwargs())\n"
)


@pytest.mark.parametrize(
    "write",
    [
        "    kw.setdefault(\n        'logits_processors',\n        ['few_shot_prompts.stop_processor:BoxedAnswerStopProcessor'],  # here\n    )\n",
        "    kw.setdefault('logits_processors',\n                  ['stop:BoxedAnswerStopProcessor'])  # here\n",
        "    kw.setdefault(\n        'logits_processors', ['stop:BoxedAnswerStopProcessor']  # here\n    )\n",
        "    kw.setdefault('logits_processors', ['stop:BoxedAnswerStopProcessor'])  # here\n",
    ],
)
def test_setdefault_of_logits_processors_is_reported_at_its_value(tmp_path: Path, write: str) -> None:
    source = SETDEFAULT.format(write=write)
    line = 1 + next(n for n, text in enumerate(source.splitlines()) if "# here" in text)
    assert check(tmp_path, {"run.py": source}) == [("run.py", line, "RPL001")]


@pytest.mark.parametrize(
    "write",
    [
        "    kw.setdefault(\n        'max_model_len',\n        4096,\n    )\n",
        "    import json, sys\n    kw.setdefault(\n        'logits_processors',\n        json.loads(sys.argv[1]),\n    )\n",
    ],
)
def test_setdefault_of_another_key_or_a_run_time_value_is_silent(tmp_path: Path, write: str) -> None:
    assert check(tmp_path, {"run.py": SETDEFAULT.format(write=write)}) == []


# a module-level engine made once under `if llm is None:`, read in a loop after it

MADE_ONCE = (
    "from vllm import LLM, SamplingParams\n\n"
    "llm = None\n\n\n"
    "def complete(prompts, batch_size=2):\n"
    "    global llm\n"
    "    {made}\n"
    "        llm = LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    params = SamplingParams(max_tokens=64, temperature=0.7)\n"
    "    outputs = []\n"
    "    {loop}\n"
    "        outputs += llm.generate(prompts[i : i + batch_size], params)\n"
    "    return outputs\n\n\n"
    "complete(['a', 'b', 'c'])\n"
)


@pytest.mark.parametrize(
    "loop",
    ["for i in range(0, len(prompts), batch_size):", "for i in [0, 2]:", "while len(outputs) < len(prompts):\n        i = len(outputs)"],
)
def test_an_engine_made_once_is_read_in_a_loop_after_it(tmp_path: Path, loop: str) -> None:
    source = MADE_ONCE.format(made="if llm is None:", loop=loop)
    assert check(tmp_path, {"run.py": source}) == [("run.py", 10, "RPL102")]


@pytest.mark.parametrize("made", ["if input():", "if llm is not None:"])  # (`if prompts:` of the call's `['a', ...]` is decided)
def test_an_engine_made_on_some_paths_only_is_not_followed(tmp_path: Path, made: str) -> None:
    source = MADE_ONCE.format(made=made, loop="for i in range(0, len(prompts), batch_size):")
    assert check(tmp_path, {"run.py": source}) == []


# a request its `**kwargs` or tested parameters decide, read with the callers in the modules near it

DECODER = (
    "from vllm import LLM, SamplingParams\n\n"
    "llm = LLM(model='Qwen/Qwen2.5-7B-Instruct', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n\n\n"
    "def completions(prompts, max_new_tokens, **kwargs):\n"
    "    sampling_params = SamplingParams(max_tokens=max_new_tokens)\n"
    "    if 'temperature' in kwargs:\n"
    "        sampling_params.temperature = kwargs['temperature']\n"
    "    if 'top_k' in kwargs:\n"
    "        sampling_params.top_k = kwargs['top_k']\n"
    "    return llm.generate(prompts, sampling_params)\n"
)
TESTED = (
    "from vllm import LLM, SamplingParams\n\n"
    "llm = LLM(model='Qwen/Qwen2.5-7B-Instruct', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n\n\n"
    "def completions(prompts, max_new_tokens, temperature=0.7, top_k=None):\n"
    "    sampling_params = SamplingParams(max_tokens=max_new_tokens, temperature=temperature)\n"
    "    if top_k is not None:\n"
    "        sampling_params.top_k = top_k\n"
    "    return llm.generate(prompts, sampling_params)\n"
)


@pytest.mark.parametrize(
    ("decoder", "call"),
    [
        (DECODER, "KW = {'max_new_tokens': 256, 'temperature': 0.7, 'top_p': 1.0}\ncompletions(['q'], **KW)\n"),
        (DECODER, "completions(['q'], max_new_tokens=256, temperature=0.7)\n"),
        (TESTED, "completions(['q'], 256)\n"),
    ],
)
def test_a_caller_elsewhere_without_top_k_decides_the_request(tmp_path: Path, decoder: str, call: str) -> None:
    files = {"pkg/__init__.py": "", "pkg/decoder.py": decoder, "run_eval.py": "from pkg.decoder import completions\n\n" + call}
    assert check(tmp_path, files) == [("decoder.py", 7, "RPL102")]


@pytest.mark.parametrize(
    ("decoder", "call"),
    [
        (DECODER, "KW = {'max_new_tokens': 256, 'temperature': 0.7, 'top_k': 50}\ncompletions(['q'], **KW)\n"),
        (DECODER, "import json, sys\ncompletions(['q'], 256, **json.load(open(sys.argv[1])))\n"),
        (TESTED, "completions(['q'], 256, top_k=40)\n"),
        (TESTED, "import sys\ncompletions(['q'], 256, top_k=int(sys.argv[1]))\n"),
    ],
)
def test_a_caller_elsewhere_with_top_k_or_a_run_time_value_is_silent(tmp_path: Path, decoder: str, call: str) -> None:
    files = {"pkg/__init__.py": "", "pkg/decoder.py": decoder, "run_eval.py": "from pkg.decoder import completions\n\n" + call}
    assert check(tmp_path, files) == []


# an engine handed to a function through a registry dict of functions, re-exported by a package

SEARCH = (
    "from vllm import SamplingParams\n\n\n"
    "def best_of_n(x, config, llm):\n"
    "    sampling_params = SamplingParams(temperature=config.temperature, max_tokens=config.max_tokens, n=1)\n"
    "    return llm.chat(x, sampling_params=sampling_params)\n"
)
CONFIG = (
    "from dataclasses import dataclass\n\n\n"
    "@dataclass\n"
    "class Config:\n"
    "    approach: str = '{approach}'\n"
    "    model_path: str = 'meta-llama/Llama-3.2-1B-Instruct'\n"
    "    temperature: float = 0.8\n"
    "    max_tokens: int = 2048\n"
)
MAIN = (
    "import sys\n\n"
    "from transformers import HfArgumentParser\n"
    "from vllm import LLM\n\n"
    "from sal.config import Config\n"
    "{imports}\n\n\n"
    "def beam_search(x, config, llm):\n"
    "    return x\n\n\n"
    "APPROACHES = {{'best_of_n': best_of_n, 'beam_search': beam_search}}\n\n\n"
    "def main():\n"
    "    (config,) = HfArgumentParser(Config).parse_args_into_dataclasses()\n"
    "    llm = LLM(model=config.model_path, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    {call}\n\n\n"
    "main()\n"
)


def _search_tree(approach: str, imports: str, call: str) -> dict[str, str]:
    return {
        "src/sal/__init__.py": "",
        "src/sal/config.py": CONFIG.format(approach=approach),
        "src/sal/search/__init__.py": "from .best_of_n import best_of_n\n\n__all__ = ['best_of_n']\n",
        "src/sal/search/best_of_n.py": SEARCH,
        "scripts/test_time_compute.py": MAIN.format(imports=imports, call=call),
    }


@pytest.mark.parametrize(
    ("imports", "call"),
    [
        ("from sal.search import best_of_n", "approach_fn = APPROACHES[config.approach]\n    print(approach_fn({}, config, llm))"),
        ("from sal.search import best_of_n", "print(APPROACHES[config.approach]({}, config, llm))"),
        ("from sal.search.best_of_n import best_of_n", "approach_fn = APPROACHES[config.approach]\n    approach_fn({}, config, llm)"),
        ("from sal.search import best_of_n", "best_of_n({}, config, llm)"),
    ],
)
def test_a_function_the_engine_is_handed_to_through_a_registry_is_read(tmp_path: Path, imports: str, call: str) -> None:
    assert check(tmp_path, _search_tree("best_of_n", imports, call)) == [("best_of_n.py", 5, "RPL102")]


@pytest.mark.parametrize(
    ("approach", "call"),
    [
        ("beam_search", "approach_fn = APPROACHES[config.approach]\n    approach_fn({}, config, llm)"),  # another function
        ("best_of_n", "approach_fn = APPROACHES[sys.argv[1]]\n    approach_fn({}, config, llm)"),  # chosen at run time
    ],
)
def test_a_registry_key_that_picks_another_function_or_is_not_known_is_silent(tmp_path: Path, approach: str, call: str) -> None:
    assert check(tmp_path, _search_tree(approach, "from sal.search import best_of_n", call)) == []


# a config folder's YAML read by the project's Python around it

ROLLOUT = (
    "engine:\n"
    "  model: Qwen/Qwen2.5-3B-Instruct\n"
    "  gpu_memory_utilization: 0.6\n"
    "  max_model_len: 4096\n"
    "  return_sampling_mask: true\n"
    "  logprobs_mode: processed_logprobs\n"
    "sampling:\n"
    "  temperature: 1.0\n"
    "  top_k: {top_k}\n"
)
GENERATION = (
    "import os\nfrom pathlib import Path\n\n"
    "import yaml\n"
    "from vllm import AsyncEngineArgs, SamplingParams\n"
    "from vllm.v1.engine.async_llm import AsyncLLM\n\n"
    "CONFIG_PATH = {path}\n\n\n"
    "class Manager:\n"
    "    def __init__(self, config_path=CONFIG_PATH):\n"
    "        with open(config_path) as f:\n"
    "            self.config = yaml.safe_load(f)\n"
    "        self.engine = AsyncLLM.from_engine_args(AsyncEngineArgs(**self.config['engine']))\n"
    "        self.sampling_params = SamplingParams(**self.config['sampling'])\n\n"
    "    async def generate(self, prompt):\n"
    "        async for out in self.engine.generate(prompt, self.sampling_params, request_id='0'):\n"
    "            final = out\n"
    "        return final\n\n\n"
    "manager = Manager()\n"
)


def _rollout_tree(path: str, top_k: str, config: str = "config/rollout.yaml") -> dict[str, str]:
    return {
        config: ROLLOUT.format(top_k=top_k),
        "search_r1/__init__.py": "",
        "search_r1/llm_agent/__init__.py": "",
        "search_r1/llm_agent/generation.py": GENERATION.format(path=path),
    }


@pytest.mark.parametrize(
    "path",
    [
        "Path(__file__).resolve().parents[2] / 'config' / 'rollout.yaml'",
        "Path(__file__).parent.parent.parent / 'config' / 'rollout.yaml'",
        "Path(__file__).absolute().parents[2] / 'config/rollout.yaml'",
    ],
)
def test_a_config_folder_read_by_the_projects_python_is_followed(tmp_path: Path, path: str) -> None:
    assert check(tmp_path, _rollout_tree(path, "-1")) == [("rollout.yaml", 9, "RPL102")]


@pytest.mark.parametrize(
    ("path", "top_k", "config"),
    [
        ("Path(__file__).resolve().parents[2] / 'config' / 'rollout.yaml'", "20", "config/rollout.yaml"),  # a valid top_k
        ("Path(__file__).resolve().parents[2] / 'config' / 'other.yaml'", "-1", "config/rollout.yaml"),  # another file read
        ("Path(os.environ['CONFIG_DIR']) / 'rollout.yaml'", "-1", "config/rollout.yaml"),  # a folder from the environment
    ],
)
def test_a_config_folder_not_read_or_valid_is_silent(tmp_path: Path, path: str, top_k: str, config: str) -> None:
    assert check(tmp_path, _rollout_tree(path, top_k, config)) == []
