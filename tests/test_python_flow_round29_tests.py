"""What held-out round 29 made the value flow follow in a repository's e2e tests (vllm-project/speculators:
a missed RPL002 and a missed RPL101).

A helper of the tests (`run_vllm_engine`) runs `run_vllm.py` in a second Python with the engine's and the
request's keywords as JSON in argparse options (`--llm-args json.dumps(llm_args_dict)`), read there by
`LLM(**json.loads(args.llm_args))` and `SamplingParams(**json.loads(args.sampling_params_args))`: each
key is decided where the helper's dict writes it, and a dict the helper fills from its parameters
(`speculative_config`) is read with what each test passes. The interpreter may come from a variable
whose default is this Python (`os.environ.get("VLLM_PYTHON", sys.executable)`): it runs the same script.
Values the flow cannot know stay open: a pytest parameter, runs that disagree, a word the program's
parser does not show, an interpreter from the environment alone; another engine is not vLLM's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

PROGRAM = (
    "import argparse\n"
    "import json\n"
    "\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def parse_args():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--sampling-params-args', type=str, required=True)\n"
    "    parser.add_argument('--llm-args', type=str, required=True)\n"
    "    parser.add_argument('--max-new', type=int, default=8)\n"
    "    parser.add_argument('--eager', action='store_true')\n"
    "    return parser.parse_args()\n"
    "\n"
    "\n"
    "def run_vllm(args):\n"
    "    sampling_params = SamplingParams(**json.loads(args.sampling_params_args))\n"
    "    llm = {engine}(**json.loads(args.llm_args), enforce_eager=args.eager)\n"
    "    return llm.generate(['p'], sampling_params)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    run_vllm(parse_args())\n"
)
HELPER = (
    "import json\n"
    "import os\n"
    "import subprocess\n"
    "import sys\n"
    "from pathlib import Path\n"
    "\n"
    "\n"
    "def run_vllm_engine(model_path, speculative_config=None, max_tokens=50):\n"
    "    python = {python}\n"
    "    sampling_params_dict = {\n"
    "        'temperature': {temperature},\n"
    "        'top_k': 20,\n"
    "        'max_tokens': max_tokens,\n"
    "    }\n"
    "    llm_args_dict = {\n"
    "        'model': model_path,\n"
    "        'return_sampling_mask': True,\n"
    "        'logprobs_mode': 'processed_logprobs',\n"
    "    }\n"
    "    if speculative_config is not None:\n"
    "        llm_args_dict['speculative_config'] = speculative_config\n"
    "    command = [\n"
    "        python,\n"
    "        {script},\n"
    "        '--sampling-params-args',\n"
    "        json.dumps(sampling_params_dict),\n"
    "        '--llm-args',\n"
    "        json.dumps(llm_args_dict),\n"
    "        {more}\n"
    "    ]\n"
    "    subprocess.run(command, check=True)\n"
)
TEMPERATURE_LINE = 11
TEST = (
    "import pytest\n"
    "\n"
    "from tests.e2e.utils import run_vllm_engine\n"
    "\n"
    "\n"
    "def test_eagle3(tmp_path):\n"
    "    run_vllm_engine(\n"
    "        model_path='meta-llama/Llama-3.1-8B-Instruct',\n"
    "        speculative_config={\n"
    "            'method': 'eagle3',\n"
    "            'model': str(tmp_path / 'converted'),\n"
    "            'num_speculative_tokens': 3,\n"
    "            'enable_adaptive_verification': {adaptive},\n"
    "        },\n"
    "    )\n"
)
ADAPTIVE_LINE = 13
SCRIPT = "str(Path(__file__).with_name('run_vllm.py'))"
PYTHON = "os.environ.get('VLLM_PYTHON', sys.executable)"


def tree(
    temperature: str = "0.6",
    adaptive: str = "False",
    python: str = PYTHON,
    script: str = SCRIPT,
    more: str = "",
    engine: str = "LLM",
    test: str = TEST,
) -> dict[str, str]:
    helper = HELPER.replace("{python}", python).replace("{script}", script).replace("{more}", more)
    return {
        "tests/__init__.py": "",
        "tests/e2e/__init__.py": "",
        "tests/e2e/run_vllm.py": PROGRAM.replace("{engine}", engine),
        "tests/e2e/utils.py": helper.replace("{temperature}", temperature),
        "tests/e2e/regression/__init__.py": "",
        "tests/e2e/regression/test_eagle3.py": test.replace("{adaptive}", adaptive),
    }


@pytest.mark.parametrize(
    ("python", "script"),
    [
        (PYTHON, SCRIPT),
        ("sys.executable", "str(Path(__file__).parent / 'run_vllm.py')"),
        ("os.getenv('PYTHON_BIN', sys.executable)", "os.path.join(os.path.dirname(__file__), 'run_vllm.py')"),
    ],
    ids=["environ-get-default", "sys-executable", "getenv-default"],
)
def test_a_greedy_request_sent_as_json_in_an_option(tmp_path: Path, python: str, script: str) -> None:
    files = tree(temperature="0", python=python, script=script)
    assert check(tmp_path, files) == [("utils.py", TEMPERATURE_LINE, "RPL101")]


def test_a_speculative_config_the_test_passes_to_the_helper(tmp_path: Path) -> None:
    assert check(tmp_path, tree(adaptive="True")) == [("test_eagle3.py", ADAPTIVE_LINE, "RPL002")]


@pytest.mark.parametrize(
    "more",
    ["'--max-new', '16', '--eager',", "'--max-new=16',", "'--eager',"],
    ids=["value-and-flag", "equals", "store-true"],
)
def test_other_options_of_the_run_read_as_argparse_reads_them(tmp_path: Path, more: str) -> None:
    assert check(tmp_path, tree(adaptive="True", more=more)) == [("test_eagle3.py", ADAPTIVE_LINE, "RPL002")]


def test_a_sampled_request_and_fixed_verification_are_clean(tmp_path: Path) -> None:
    assert check(tmp_path, tree()) == []


def test_a_pytest_parameter_stays_open(tmp_path: Path) -> None:
    test = TEST.replace(
        "def test_eagle3(tmp_path):\n", "@pytest.mark.parametrize('adaptive', [True, False])\ndef test_eagle3(tmp_path, adaptive):\n"
    )
    assert check(tmp_path, tree(adaptive="adaptive", test=test)) == []


def test_runs_that_disagree_leave_the_engine_open(tmp_path: Path) -> None:
    second = TEST.replace("test_eagle3", "test_eagle3_fixed").replace("{adaptive}", "False").replace("import pytest\n\n", "")
    second = second.replace("from tests.e2e.utils import run_vllm_engine\n", "")
    assert check(tmp_path, tree(adaptive="True", test=TEST + "\n" + second)) == []


@pytest.mark.parametrize(
    ("python", "more"),
    [
        ("os.environ['VLLM_PYTHON']", ""),
        (PYTHON, "'--unknown-option', 'x',"),
        (PYTHON, "'-v',"),
    ],
    ids=["interpreter-from-environment", "option-not-shown", "short-flag"],
)
def test_a_run_not_read_leaves_the_options_open(tmp_path: Path, python: str, more: str) -> None:
    assert check(tmp_path, tree(temperature="0", adaptive="True", python=python, more=more)) == []


def test_another_engine_is_not_vllm_s(tmp_path: Path) -> None:
    files = tree(temperature="0", adaptive="True", engine="Engine")
    files["tests/e2e/run_vllm.py"] = files["tests/e2e/run_vllm.py"].replace(
        "from vllm import LLM, SamplingParams\n", "from sglang import Engine\nfrom vllm import SamplingParams\n"
    )
    assert check(tmp_path, files) == []
