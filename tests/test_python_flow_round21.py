"""What held-out round 21 (tests/data/python_flow/h21_*) made the value flow follow:
a command string a call spells as an f-string or puts together with `+` (CodeGeeX4's
`os.system(f"python -m vllm.entrypoints.openai.api_server --model {MODEL} --port {PORT} {flags}")`
with `flags +=`), read with its replacements' values and taking the place of the libcst pass's
reading of the same command; `isinstance(params, dict)` of vLLM's `SamplingParams(...)` (ArcticTraining's
signature default `sampling_params=SamplingParams(temperature=1.0)`, turned into one only when a dict is
given); a request on `self.llm` that `__init__` sets to None and a method sets to the engine
(NeMo-Aligner's `VLLMInferenceServer.start`); and a function-local `from vllm import ...` read in
the class written inside that function. Each stays silent where the value is the run's, or where
the reader cannot tell which engine or class it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# CodeGeeX4: a command string put together in the call

REPLAY = "--return-sampling-mask --logprobs-mode processed_logprobs"
SYSTEM = (
    "import os\n"
    "import subprocess\n"
    "import sys\n"
    "\n"
    'MODEL = "THUDM/codegeex4-all-9b"\n'
    "PORT = 8000\n"
    "\n"
    'flags = "--trust-remote-code --max-model-len 8192"\n'
    "{grow}"  # line 9
    "{run}\n"
)


def _system(run: str, grow: str = f'flags += " {REPLAY}"\n') -> dict[str, str]:
    return {"serve.py": SYSTEM.format(grow=grow, run=run)}


@pytest.mark.parametrize(
    "run",
    [
        'os.system(f"python -m vllm.entrypoints.openai.api_server --model {MODEL} --port {PORT} {flags}")',  # the case's
        'subprocess.run(f"vllm serve {MODEL} --port {PORT} {flags}", shell=True)',
        'os.popen("vllm serve " + MODEL + " " + flags)',
        'subprocess.Popen("vllm serve " + MODEL + " --port " + str(PORT) + " " + flags, shell=True)',
        'cmd = f"vllm serve {MODEL} {flags}"\nsubprocess.Popen(cmd, shell=True)',
        'os.system(f"cd /srv && CUDA_VISIBLE_DEVICES=0 vllm serve {MODEL} {flags}")',
    ],
)
def test_a_command_string_put_together_in_the_call_is_read_with_its_pieces(tmp_path: Path, run: str) -> None:
    assert check(tmp_path, _system(run)) == [("serve.py", 9, "RPL301")]


@pytest.mark.parametrize(
    "run",
    [
        'os.system(f"vllm serve {MODEL} {flags} --enable-scale-out")',  # the route is open
        'os.system(f"vllm serve {MODEL} {flags} {sys.argv[1]}")',  # words from the command line: `--enable-scale-out` too
        'os.system(f"vllm serve {MODEL} {flags} " + os.environ.get("EXTRA", ""))',
        'os.system(f"vllm serve {MODEL} {flags} $EXTRA")',  # the shell expands it
        'os.system(f"sglang serve {MODEL} {flags}")',  # not vLLM
    ],
)
def test_pieces_that_may_open_the_route_or_another_program_say_nothing(tmp_path: Path, run: str) -> None:
    assert check(tmp_path, _system(run)) == []


def test_flags_from_the_environment_say_nothing(tmp_path: Path) -> None:
    files = _system('os.system(f"vllm serve {MODEL} {flags}")', grow='flags += " " + os.environ.get("REPLAY_FLAGS", "")\n')
    assert check(tmp_path, files) == []


@pytest.mark.parametrize(
    "run",
    [
        f'os.system(f"vllm serve {{MODEL}} {REPLAY}")',  # the libcst pass reads all but the model
        f"os.system(f\"vllm serve '{{MODEL}}' {REPLAY}\")",  # a quoted replacement: one word
        f'os.system(f"vllm serve m {REPLAY}")',  # an f-string without replacements: a literal
        f'os.system(f"vllm serve {{MODEL}} {REPLAY} && vllm serve {{MODEL}} --port 8001 {REPLAY}")',
    ],
)
def test_a_command_both_passes_read_is_reported_once_per_command(tmp_path: Path, run: str) -> None:
    found = check(tmp_path, _system(run, grow="\n"))
    assert found == [("serve.py", 10, "RPL301")] * run.count("vllm serve")


# ArcticTraining: a SamplingParams default that a dict given would replace

SYNTH = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "class VllmSynth:\n"
    "    def __init__(self, model_params, sampling_params=SamplingParams(temperature=1.0), work_dir=None):\n"  # line 5
    "        self.llm = LLM(**model_params)\n"
    "        {test}\n"
    "            sampling_params = SamplingParams(**sampling_params)\n"
    "        self.sampling_params = sampling_params\n"
    "\n"
    "    def execute(self, conversations):\n"
    "        return self.llm.chat(messages=conversations, sampling_params=self.sampling_params)\n"
)
CALLER = (
    "from synth import VllmSynth\n"
    "\n"
    "client = VllmSynth(\n"
    "    model_params={{'model': 'm', 'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}},{given}\n"
    ")\n"
    "client.execute([[{{'role': 'user', 'content': 'hi'}}]])\n"
)
TESTS = [
    "if isinstance(sampling_params, dict):",  # the case's
    "if not isinstance(sampling_params, SamplingParams):",
    "if isinstance(sampling_params, (dict, list)):",
]


def _synth(test: str, given: str = "") -> dict[str, str]:
    return {"synth.py": SYNTH.format(test=test), "run.py": CALLER.format(given=given)}


@pytest.mark.parametrize("test", TESTS)
def test_the_signature_default_a_type_test_keeps_is_the_request(tmp_path: Path, test: str) -> None:
    assert check(tmp_path, _synth(test)) == [("synth.py", 5, "RPL102")]


@pytest.mark.parametrize("test", TESTS)
@pytest.mark.parametrize(
    "given",
    [
        " sampling_params=SamplingParams(temperature=0.7, top_k=50),",
        " sampling_params={'temperature': 0.7, 'top_k': 50},",
        " sampling_params=json.load(open('sampling.json')),",  # the run's file
    ],
)
def test_params_the_caller_gives_replace_the_default(tmp_path: Path, test: str, given: str) -> None:
    files = _synth(test, given)
    files["run.py"] = "import json\n\nfrom vllm import SamplingParams\n" + files["run.py"]
    assert check(tmp_path, files) == []


def test_a_type_test_against_a_class_of_the_tree_stays_unknown(tmp_path: Path) -> None:
    """A base of the user's own may or may not be vLLM's class: both branches stay possible."""
    files = _synth("if isinstance(sampling_params, MyParams):")
    files["synth.py"] = files["synth.py"].replace("from vllm import", "class MyParams:\n    pass\n\n\nfrom vllm import")
    files["synth.py"] = files["synth.py"].replace(
        "            sampling_params = SamplingParams(**sampling_params)", "            sampling_params = sampling_params.build()"
    )
    assert check(tmp_path, files) == []


# NeMo-Aligner: an engine a method sets after `__init__` left None, in a class written in a function

SERVER = (
    "import os\n"
    "\n"
    "import yaml\n"
    "{top_import}"
    "\n"
    'CONF = os.path.join(os.path.dirname(__file__), "conf", "gen.yaml")\n'
    "\n"
    "\n"
    "def worker_process(load_path, batch_tokens, sampling_cfg):\n"
    "{local_import}"
    "    class Server:\n"
    "        def __init__(self):\n"
    "            {unset}\n"
    "\n"
    "        def start(self, path):\n"
    "            self.llm = {engine}(model=path, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "\n"
    "        def generate(self, batch_tokens, sampling_params: dict):\n"
    "            sampling_params = SamplingParams(\n"
    "                temperature=sampling_params.get('temperature', 1.0),\n"
    "                top_k=sampling_params.get('top_k', -1),\n"
    "            )\n"
    "            return self.llm.generate(batch_tokens, sampling_params, use_tqdm=True)\n"
    "\n"
    "    server = Server()\n"
    "    server.start(load_path)\n"
    "    return server.generate(batch_tokens, sampling_cfg)\n"
    "\n"
    "\n"
    'if __name__ == "__main__":\n'
    "    with open({conf}) as f:\n"
    "        cfg = yaml.safe_load(f)\n"
    "    worker_process(cfg['vllm']['path'], [[1, 2, 3]], cfg['generation']['sampling_params'])\n"
)
GEN = "generation:\n  sampling_params:\n    temperature: {temperature}\n    top_k: 1\nvllm:\n  path: m\n"
LOCAL = "    from vllm import LLM, SamplingParams\n\n"
TOP = "from vllm import LLM, SamplingParams\n"


def _server(
    temperature: str = "0.0", unset: str = "self.llm = None", engine: str = "LLM", local: bool = True, conf: str = "CONF"
) -> dict[str, str]:
    server = SERVER.format(top_import="" if local else TOP, local_import=LOCAL if local else "", unset=unset, engine=engine, conf=conf)
    return {"serve.py": server, "conf/gen.yaml": GEN.format(temperature=temperature)}


@pytest.mark.parametrize("local", [True, False])
@pytest.mark.parametrize("unset", ["self.llm = None", "self.llm: LLM | None = None", "self.llm = None\n            self.ready = False"])
def test_the_engine_a_method_sets_gets_the_request_of_its_object(tmp_path: Path, local: bool, unset: str) -> None:
    assert check(tmp_path, _server(unset=unset, local=local)) == [("gen.yaml", 3, "RPL101")]


def test_a_greater_temperature_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, _server(temperature="1.0")) == []


def test_the_run_s_config_file_says_nothing(tmp_path: Path) -> None:
    files = _server(conf="os.environ['GEN_CONF']")
    assert check(tmp_path, files) == []


def test_an_attribute_set_to_two_engines_is_not_told_apart(tmp_path: Path) -> None:
    unset = "self.llm = LLM(model='other')"  # `__init__` builds another engine, without the mask
    assert check(tmp_path, _server(unset=unset)) == []


def test_another_library_s_engine_is_not_vllm_s(tmp_path: Path) -> None:
    files = _server(engine="Engine")
    files["serve.py"] = files["serve.py"].replace(
        "    from vllm import LLM, SamplingParams\n", "    from vllm import SamplingParams\n    from sglang import Engine\n"
    )
    assert check(tmp_path, files) == []


def test_a_name_the_enclosing_function_binds_otherwise_is_not_its_import(tmp_path: Path) -> None:
    """`LLM = make_engine_class()` in the function around the class: whatever it returns, not read here."""
    files = _server(local=False)
    files["serve.py"] = files["serve.py"].replace(
        "def worker_process(load_path, batch_tokens, sampling_cfg):\n",
        "def worker_process(load_path, batch_tokens, sampling_cfg):\n    LLM = make_engine_class()\n",
    )
    files["serve.py"] = files["serve.py"].replace("import yaml\n", "import yaml\nfrom engines import make_engine_class\n")
    assert check(tmp_path, files) == []
