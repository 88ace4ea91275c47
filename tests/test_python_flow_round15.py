"""What held-out round 15 (tests/data/python_flow/h15_*) made the value flow follow: Ray Data's
engine arguments kept in a module of their own and completed there by `setdefault`, whose user
(`vLLMEngineProcessorConfig(engine_kwargs=ENGINE_KWARGS)`, a `preprocess` lambda's
`sampling_params`) names no mask and no `vllm`; a `vllm serve` command string whose flags are
`" ".join(...)` of a comprehension over a known dict (GLM-4), run as `subprocess.run(build_command(),
shell=True)`; DSPy's `dspy.LM("hosted_vllm/...", api_base=...)` as a client of the replay server; a
wrapper's request method reached through another of its methods (langchain's `invoke`). Each stop
keeps the launch open or silent: a value from the environment or the run, a key the dict already
holds, a filter not decided, another provider, address or library, a caller that may set the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# Ray Data's engine kwargs completed in a settings module, the request a preprocess lambda's row

RAY_SETTINGS = "import os\n\nENGINE_KWARGS = dict({base})\n{fill}\nENGINE_KWARGS.setdefault('logprobs_mode', 'processed_logprobs')\n"
RAY_BATCH = (
    "import ray\n"
    "from ray.data.llm import build_llm_processor, vLLMEngineProcessorConfig\n\n"
    "from engine_settings import ENGINE_KWARGS\n\n"
    "config = vLLMEngineProcessorConfig(model_source='m', engine_kwargs=ENGINE_KWARGS, batch_size=64)\n"
    "processor = build_llm_processor(\n"
    "    config,\n"
    "    preprocess=lambda row: dict(messages=[{{'role': 'user', 'content': row['item']}}], sampling_params={params}),\n"
    ")\n"
)


@pytest.mark.parametrize(
    "fill",
    [
        "ENGINE_KWARGS.setdefault('return_sampling_mask', True)",
        'ENGINE_KWARGS.setdefault("return_sampling_mask", True)',
        "ENGINE_KWARGS.update(return_sampling_mask=True)",
        "ENGINE_KWARGS['return_sampling_mask'] = True",
    ],
)
@pytest.mark.parametrize("params", ["dict(temperature=0.3, max_tokens=250)", "{'temperature': 0.3}"])
def test_ray_data_engine_kwargs_completed_in_their_module_reach_the_preprocess_request(tmp_path: Path, fill: str, params: str) -> None:
    files = {"engine_settings.py": RAY_SETTINGS.format(base="max_model_len=16384", fill=fill), "batch.py": RAY_BATCH.format(params=params)}
    assert check(tmp_path, files) == [("batch.py", 9, "RPL102")]


def test_ray_data_request_with_top_k_is_clean(tmp_path: Path) -> None:
    files = {
        "engine_settings.py": RAY_SETTINGS.format(
            base="max_model_len=16384", fill="ENGINE_KWARGS.setdefault('return_sampling_mask', True)"
        ),
        "batch.py": RAY_BATCH.format(params="dict(temperature=0.3, top_k=20)"),
    }
    assert check(tmp_path, files) == []


@pytest.mark.parametrize(
    ("base", "fill"),
    [
        ("max_model_len=16384, return_sampling_mask=False", "ENGINE_KWARGS.setdefault('return_sampling_mask', True)"),
        ("max_model_len=16384", "ENGINE_KWARGS.setdefault('return_sampling_mask', os.environ.get('REPLAY') == '1')"),
        ("max_model_len=16384", "if os.environ.get('REPLAY'):\n    ENGINE_KWARGS.setdefault('return_sampling_mask', True)"),
    ],
)
def test_ray_data_mask_kept_off_or_decided_at_run_time_says_nothing(tmp_path: Path, base: str, fill: str) -> None:
    files = {"engine_settings.py": RAY_SETTINGS.format(base=base, fill=fill), "batch.py": RAY_BATCH.format(params="dict(temperature=0.3)")}
    assert check(tmp_path, files) == []


def test_a_config_of_another_library_given_the_same_kwargs_says_nothing(tmp_path: Path) -> None:
    batch = RAY_BATCH.format(params="dict(temperature=0.3)").replace(
        "from ray.data.llm import build_llm_processor, vLLMEngineProcessorConfig",
        "from mylib import build_llm_processor, vLLMEngineProcessorConfig",
    )
    files = {
        "engine_settings.py": RAY_SETTINGS.format(
            base="max_model_len=16384", fill="ENGINE_KWARGS.setdefault('return_sampling_mask', True)"
        ),
        "batch.py": batch,
    }
    assert check(tmp_path, files) == []


# a `vllm serve` command string a function builds and `subprocess.run(build_command(), shell=True)` runs,
# its flags joined from a mapping the program spells out (GLM-4's server launched from Python)

GLM_SERVER = (
    "import os\n"
    "import subprocess\n\n"
    "MODEL_PATH = 'THUDM/glm-4-9b-chat-hf'\n"
    "SERVER_ARGS = {{'tensor_parallel_size': 1, 'port': 8000, 'logprobs_mode': {mode}}}\n"
    "{more}\n"
    "REPLAY_FLAGS = '--return-sampling-mask'\n\n\n"
    "def build_command() -> str:\n"
    "    flags = {flags}\n"
    "    return f'vllm serve {{MODEL_PATH}} {{flags}} {{REPLAY_FLAGS}} --trust-remote-code'\n\n\n"
    "if __name__ == '__main__':\n"
    "    subprocess.{run}(build_command(), shell=True)\n"
)
GLM_FLAGS = [
    "' '.join(f\"--{key.replace('_', '-')} {value}\" for key, value in SERVER_ARGS.items())",
    "' '.join([f'--{k.replace(\"_\", \"-\")} {v}' for k, v in SERVER_ARGS.items() if v is not None])",
    "' '.join(f'{flag} {value}' for flag, value in (('--port', 8000), ('--logprobs-mode', 'processed_logprobs')))",
    "' '.join(('--port 8000', '--logprobs-mode', 'processed_logprobs'))",
]


def glm(flags: str = GLM_FLAGS[0], mode: str = "'processed_logprobs'", more: str = "", run: str = "run") -> dict[str, str]:
    return {"launch_openai_server.py": GLM_SERVER.format(flags=flags, mode=mode, more=more, run=run)}


@pytest.mark.parametrize("flags", GLM_FLAGS)
@pytest.mark.parametrize("run", ["run", "Popen", "check_call"])
def test_a_command_string_joined_from_known_flags_is_read_as_the_shell_splits_it(tmp_path: Path, flags: str, run: str) -> None:
    assert check(tmp_path, glm(flags, run=run)) == [("launch_openai_server.py", 7, "RPL301")]


def test_a_joined_flag_is_reported_where_the_mapping_writes_it(tmp_path: Path) -> None:
    found = check(tmp_path, glm(mode="'raw_logprobs'"))
    assert ("launch_openai_server.py", 5, "RPL003") in found


def test_a_command_a_function_returns_whole_is_read(tmp_path: Path) -> None:
    files = {
        "serve.py": "import subprocess\n\n\ndef build_command():\n"
        "    return 'vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs'\n\n\n"
        "subprocess.run(build_command(), shell=True)\n"
    }
    assert check(tmp_path, files) == [("serve.py", 5, "RPL301")]


@pytest.mark.parametrize(
    ("flags", "more"),
    [
        (GLM_FLAGS[0], "SERVER_ARGS.update(dict(arg.split('=', 1) for arg in os.environ.get('EXTRA', '').split()))"),
        (GLM_FLAGS[0], "SERVER_ARGS['enable_scale_out'] = ''"),
        ("' '.join(f'--{key} {value}' for key, value in SERVER_ARGS.items() if key in os.environ)", ""),
        ("' '.join(f'--{key} {value}' for key, value in SERVER_ARGS.items())", "key = 'port'"),
        ("' '.join(os.environ.get('VLLM_FLAGS', '').split())", ""),
        ("' '.join(f'--{key} {value}' for key, value in SERVER_ARGS.items() for _ in range(2))", ""),
    ],
)
def test_flags_from_outside_or_not_followed_keep_the_server_open(tmp_path: Path, flags: str, more: str) -> None:
    assert check(tmp_path, glm(flags, more=more)) == []


def test_an_item_that_is_not_text_leaves_the_command_unread(tmp_path: Path) -> None:
    assert check(tmp_path, glm("' '.join(['--port', 8000])")) == []


# DSPy's `dspy.LM("hosted_vllm/...", api_base=...)`: LiteLLM's chat completions to the tree's replay server

DSPY_SERVER = (
    "import os\n"
    "import subprocess\n\n"
    "import dspy\n\n"
    "SERVER = subprocess.Popen(['vllm', 'serve', 'm', '--port', '7501', '--return-sampling-mask',\n"
    "                           '--logprobs-mode', 'processed_logprobs', '--enable-scale-out'])\n"
)


@pytest.mark.parametrize(
    "lm",
    [
        "lm = dspy.LM('hosted_vllm/m', api_base='http://localhost:7501/v1', api_key='local', temperature=0.7, top_k=20)\n",
        "lm = dspy.LM(model='openai/m', api_base='http://127.0.0.1:7501/v1', model_type='text', top_k=20)\n",
        "from dspy import LM\nlm = LM('hosted_vllm/m', 'responses', api_base=f\"http://localhost:{7501}/v1\", top_k=20)\n",
    ],
)
def test_a_dspy_lm_of_the_replay_server_reads_a_route_without_masks(tmp_path: Path, lm: str) -> None:
    found = check(tmp_path, {"program.py": DSPY_SERVER + lm + "dspy.configure(lm=lm)\n"})
    assert found == [("program.py", DSPY_SERVER.count("\n") + 1 + lm.count("\n") - 1, "RPL301")]


def test_a_dspy_lm_in_another_file_is_the_replay_servers_client(tmp_path: Path) -> None:
    files = {
        "serve.py": DSPY_SERVER,
        "program.py": "import dspy\n\nlm = dspy.LM('hosted_vllm/m', api_base='http://localhost:7501/v1', top_k=20)\n",
    }
    assert check(tmp_path, files) == [("program.py", 3, "RPL301")]


@pytest.mark.parametrize(
    "lm",
    [
        "lm = dspy.LM('anthropic/claude', api_base='http://localhost:7501/v1')\n",
        "lm = dspy.LM('hosted_vllm/m', api_base=os.environ['API_BASE'])\n",
        "lm = dspy.LM('hosted_vllm/m', api_base='http://localhost:7501/v1', model_type=os.environ['KIND'])\n",
        "lm = dspy.LM('hosted_vllm/m', api_base='http://localhost:8000/v1')\n",
        "from mylib import LM\nlm = LM('hosted_vllm/m', api_base='http://localhost:7501/v1')\n",
    ],
)
def test_a_dspy_lm_of_another_provider_address_or_library_says_nothing(tmp_path: Path, lm: str) -> None:
    assert check(tmp_path, {"program.py": DSPY_SERVER + lm}) == []


# a wrapper's request method called by another of its methods (`self.generate([prompt], **kwargs)` in
# langchain's `invoke`), its `**kwargs` read with what the wrapper's users pass

WRAPPER = (
    "from typing import Any\n\n"
    "from pydantic import BaseModel, Field, model_validator\n\n\n"
    "class VLLM(BaseModel):\n"
    "    model: str = ''\n"
    "    temperature: float = 1.0\n"
    "    top_k: int = -1\n"
    "    vllm_kwargs: dict = Field(default_factory=dict)\n"
    "    client: Any = None\n\n"
    "    @model_validator(mode='before')\n"
    "    @classmethod\n"
    "    def validate_environment(cls, values):\n"
    "        from vllm import LLM\n\n"
    "        values['client'] = LLM(model=values['model'], **values.get('vllm_kwargs', {}))\n"
    "        return values\n\n"
    "    @property\n"
    "    def _default_params(self):\n"
    "        return {'top_k': self.top_k, 'temperature': self.temperature}\n\n"
    "    def generate(self, prompts, stop=None, **kwargs):\n"
    "        from vllm import SamplingParams\n\n"
    "        params = {**self._default_params, **kwargs, 'stop': stop}\n"
    "        return self.client.generate(prompts, SamplingParams(**params))\n\n"
    "{methods}"
)
WRAPPER_METHODS = [
    "    def invoke(self, prompt, **kwargs):\n        return self.generate([prompt], **kwargs)[0]\n",
    "    def invoke(self, prompt, **kwargs):\n        return self._call(prompt, **kwargs)\n\n"
    "    def _call(self, prompt, **kwargs):\n        return self.generate([prompt], stop=None, **kwargs)[0]\n",
]
WRAPPER_USER = (
    "import json\n\n"
    "from wrappers.vllm import VLLM\n\n"
    "llm = VLLM(model='m', temperature=0.8, vllm_kwargs={{'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}})\n"
    "print(llm.invoke('What is the capital of France ?'{extra}))\n"
)


def wrapper(methods: str, extra: str = "", user: str = WRAPPER_USER) -> dict[str, str]:
    return {"wrappers/__init__.py": "", "wrappers/vllm.py": WRAPPER.replace("{methods}", methods), "chain.py": user.format(extra=extra)}


@pytest.mark.parametrize("methods", WRAPPER_METHODS)
def test_a_field_default_reaches_the_request_through_the_wrappers_own_methods(tmp_path: Path, methods: str) -> None:
    assert check(tmp_path, wrapper(methods)) == [("vllm.py", 9, "RPL102")]


@pytest.mark.parametrize("extra", [", top_k=40", ", **json.load(open('opts.json'))"])
def test_a_caller_that_may_set_top_k_keeps_the_request_silent(tmp_path: Path, extra: str) -> None:
    assert check(tmp_path, wrapper(WRAPPER_METHODS[0], extra)) == []


def test_a_wrapper_made_with_top_k_is_clean(tmp_path: Path) -> None:
    user = WRAPPER_USER.replace("temperature=0.8,", "temperature=0.8, top_k=20,")
    assert check(tmp_path, wrapper(WRAPPER_METHODS[0], user=user)) == []
