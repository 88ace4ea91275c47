"""What held-out round 18 (tests/data/python_flow/h18_*) made the value flow follow in command lines:
a config file's mapping whose keys become `--key value` words of a `vllm serve` argv the program
starts with `subprocess` (llama-cookbook's `start_vllm_server.py`): the file named from the
module's own place by a helper (`str(config_path) if config_path.exists() else None`), chosen by
`args.config or find_config_file()` (`--config` declared with no default: argparse's None where the
command line does not give it), read by another helper (`with open(path) as f: return
yaml.safe_load(f)`), the keys `params` takes (`parser.get_default("port")`) filtered out by a
comprehension. The prefilter now finds `["vllm", "serve", ...]` word lists (its pattern was matched
from `serve`, never from the quote before `vllm`).
The runner variable in front of a command a program runs through a shell
(math-evaluation-harness's `cmd += "VLLM_USE_V2_MODEL_RUNNER=0 "`, `Popen(cmd, shell=True)`) is that
command's environment, and a program of the tree that builds vLLM's engine itself
(`python3 -u math_eval.py`) is a launch holding it (`frameworks/engine_programs`). An OpenAI client
whose `base_url` an endpoint YAML list gives (arena-hard-auto: `random.choices(endpoints)[0]`, the
client made on a branch the caller's values decide, in a function only another module calls).
Each stop stays silent: a `--config` with a default of its own, a required `--config`, one the
program sets from the environment, a config file not where the module names it, the scale-out
route open; a program that names the runner variable, builds no vLLM engine or is not in the tree,
`shlex.split` (no shell); two endpoints, a pick of two, an address not known or on no server."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check
from tests.test_python_flow_round16_engines import only_message

# llama-cookbook's start_vllm_server.py, shortened: config.yaml's `inference:` keys not in `params`
# become `--key value` words (`--key` alone for a true boolean)

SERVER = (
    "import argparse\n"
    "import subprocess\n"
    "from pathlib import Path\n"
    "\n"
    "import yaml\n"
    "\n"
    "\n"
    "def read_config(config_path):\n"
    "    with open(config_path, 'r') as f:\n"
    "        return yaml.safe_load(f)\n"
    "\n"
    "\n"
    "def start_vllm_server(model_path, port=8000, additional_args=None):\n"
    "    cmd = ['vllm', 'serve', model_path]\n"
    "    cmd.extend(['--port', str(port)])\n"
    "    if additional_args:\n"
    "        for key, value in additional_args.items():\n"
    "{flags}"
    "    subprocess.run(cmd, check=True)\n"
    "\n"
    "\n"
    "def find_config_file():\n"
    "{find}"
    "\n"
    "\n"
    "def main():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--config', type=str{config})\n"
    "    parser.add_argument('--port', type=int, default=8000)\n"
    "    args = parser.parse_args()\n"
    "{written}"
    "    config = {{}}\n"
    "    config_path = args.config or find_config_file()\n"
    "    if config_path:\n"
    "        config = read_config(config_path)\n"
    "    inference_config = config.get('inference', {{}})\n"
    "    params = {{\n"
    "        'model_path': inference_config.get('model_path'),\n"
    "        'port': args.port if args.port != parser.get_default('port') else inference_config.get('port', args.port),\n"
    "    }}\n"
    "    additional_args = {{k: v for k, v in inference_config.items() if k not in params}}\n"
    "    if additional_args:\n"
    "        params['additional_args'] = additional_args\n"
    "    start_vllm_server(**params)\n"
    "\n"
    "\n"
    "main()\n"
)
FLAGS = [
    # llama-cookbook's: a bare flag for a true boolean, else the pair
    "            if isinstance(value, bool):\n"
    "                if value:\n"
    "                    cmd.append(f'--{key}')\n"
    "            else:\n"
    "                cmd.extend([f'--{key}', str(value)])\n",
    "            cmd += [f'--{key}'] if value is True else [f'--{key}', str(value)]\n",
]
FINDS = [
    # llama-cookbook's, the file beside the script's folder when it is there
    "    script_dir = Path(__file__).resolve().parent\n"
    "    config_path = script_dir.parent / 'config.yaml'\n"
    "    return str(config_path) if config_path.exists() else None\n",
    "    import os\n\n"
    "    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'config.yaml')\n"
    "    return path if os.path.exists(path) else None\n",
    "    return Path(__file__).parent.parent / 'config.yaml'\n",
]
CONFIG = (
    "finetuning:\n"
    "  model_id: meta-llama/Llama-3.1-8B-Instruct\n"
    "inference:\n"
    "  model_path: meta-llama/Llama-3.1-8B-Instruct\n"
    "  port: 8000\n"
    "  max_model_len: 8192\n"
    "  return_sampling_mask: true\n"
    "  logprobs_mode: processed_logprobs\n"
)


def _tree(flags: str = FLAGS[0], find: str = FINDS[0], config: str = "", written: str = "", yaml: str = CONFIG) -> dict[str, str]:
    server = SERVER.format(flags=flags, find=find, config=config, written=written)
    return {"pipeline/inference/start_vllm_server.py": server, "pipeline/config.yaml": yaml}


@pytest.mark.parametrize("flags", FLAGS)
@pytest.mark.parametrize("find", FINDS)
def test_config_keys_turned_into_server_flags_are_reported_at_the_mask(tmp_path: Path, flags: str, find: str) -> None:
    assert check(tmp_path, _tree(flags, find)) == [("config.yaml", 7, "RPL301")]


def test_the_finding_rests_on_the_config_option_not_given(tmp_path: Path) -> None:
    message = only_message(tmp_path, _tree())
    assert "when config comes from --config, not given (argparse's None, start_vllm_server.py:34)" in message


def test_a_speculative_config_string_with_adaptive_verification_is_reported_at_its_key(tmp_path: Path) -> None:
    speculative = (
        "  enable_scale_out: true\n"
        """  speculative_config: '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4,"""
        """ "enable_adaptive_verification": true}'\n"""
    )
    assert check(tmp_path, _tree(yaml=CONFIG + speculative)) == [("config.yaml", 10, "RPL002")]


@pytest.mark.parametrize(
    ("config", "written", "yaml"),
    [
        ("", "", CONFIG + "  enable_scale_out: true\n"),  # the scale-out route is open
        (", default='configs/serving.yaml'", "", CONFIG),  # another file, not in the tree
        (", required=True", "", CONFIG),  # the command line always names it
        ("", "    args.config = os.environ.get('INFERENCE_CONFIG')\n", CONFIG),  # the run names it
    ],
)
def test_config_the_run_may_name_or_a_scale_out_server_is_silent(tmp_path: Path, config: str, written: str, yaml: str) -> None:
    files = _tree(config=config, written=written, yaml=yaml)
    files["pipeline/inference/start_vllm_server.py"] = "import os\n" + files["pipeline/inference/start_vllm_server.py"]
    assert check(tmp_path, files) == []


def test_a_config_file_not_where_the_module_names_it_is_not_read(tmp_path: Path) -> None:
    files = _tree()
    files["pipeline/inference/config.yaml"] = files.pop("pipeline/config.yaml")  # beside the script, not above it
    assert check(tmp_path, files) == []


def test_an_option_written_after_its_default_is_compared_as_written(tmp_path: Path) -> None:
    """`args.port != parser.get_default("port")` after `args.port = 9000`: the command line's port wins,
    the YAML's keys still become flags."""
    assert check(tmp_path, _tree(written="    args.port = 9000\n")) == [("config.yaml", 7, "RPL301")]


# math-evaluation-harness's run_eval_multi_gpus.py: a per-GPU command string grown by `+=`, whose
# `NAME=value` prefix is the environment of a program of the tree that builds vLLM's engine itself

RUNNER = (
    "import argparse\n"
    "import os\n"
    "import subprocess\n"
    "\n"
    "\n"
    "def main():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--model_name_or_path', default='deepseek-ai/deepseek-math-7b-rl', type=str)\n"
    "    parser.add_argument('--gpus', default='0', type=str)\n"
    "    args = parser.parse_args()\n"
    "    for gpu in args.gpus.split(','):\n"
    "        cmd = f'CUDA_VISIBLE_DEVICES={{gpu}} '\n"
    "        cmd += '{prefix}'\n"
    "        cmd += f'python3 -u {program} --model_name_or_path {{args.model_name_or_path}} '\n"
    "        cmd += '--n_sampling 4'\n"
    "        {run}\n"
    "\n"
    "\n"
    "main()\n"
)
EVAL = (
    "import argparse\n"
    "\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def main():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--model_name_or_path', default='deepseek-ai/deepseek-math-7b-rl')\n"
    "    args, _ = parser.parse_known_args()\n"
    "    llm = {engine}\n"
    "    print(llm.generate(['1 + 1 ='], SamplingParams(temperature=1.0, top_k=40)))\n"
    "\n"
    "\n"
    "main()\n"
)
ENGINE = "LLM(model=args.model_name_or_path, trust_remote_code=True)"


def _harness(prefix: str = "VLLM_USE_V2_MODEL_RUNNER=0 ", run: str = "subprocess.Popen(cmd, shell=True)", engine: str = ENGINE) -> dict:
    return {
        "scripts/run_eval_multi_gpus.py": RUNNER.format(prefix=prefix, program="math_eval.py", run=run),
        "math_eval.py": EVAL.format(engine=engine),
    }


@pytest.mark.parametrize("run", ["subprocess.Popen(cmd, shell=True)", "os.system(cmd)", "subprocess.run(cmd, shell=True, check=True)"])
def test_runner_variable_before_a_program_that_builds_the_engine_is_reported_at_its_word(tmp_path: Path, run: str) -> None:
    assert check(tmp_path, _harness(run=run)) == [("run_eval_multi_gpus.py", 13, "RPL206")]


def test_runner_variable_before_the_program_in_a_shell_script(tmp_path: Path) -> None:
    files = {
        "scripts/eval.sh": "#!/bin/bash\nVLLM_USE_V2_MODEL_RUNNER=0 python3 -u math_eval.py --n_sampling 4\n",
        "math_eval.py": EVAL.format(engine=ENGINE),
    }
    assert check(tmp_path, files) == [("eval.sh", 2, "RPL206")]


def test_runner_variable_before_vllm_serve_in_a_grown_command_string(tmp_path: Path) -> None:
    serve = (
        "import subprocess\n\n\n"
        "def serve(gpu):\n"
        "    cmd = f'CUDA_VISIBLE_DEVICES={gpu} '\n"
        "    cmd += 'VLLM_USE_V2_MODEL_RUNNER=0 '\n"
        "    cmd += 'vllm serve Qwen/Qwen2.5-7B --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out'\n"
        "    subprocess.Popen(cmd, shell=True)\n\n\n"
        "serve(0)\n"
    )
    assert check(tmp_path, {"serve.py": serve}) == [("serve.py", 6, "RPL206")]


@pytest.mark.parametrize(
    ("prefix", "run", "engine"),
    [
        ("", "subprocess.Popen(cmd, shell=True)", ENGINE),  # no runner variable
        ("VLLM_USE_V2_MODEL_RUNNER=1 ", "subprocess.Popen(cmd, shell=True)", ENGINE),  # redundant, and no replay
        ("VLLM_USE_V2_MODEL_RUNNER=0 ", "subprocess.Popen(shlex.split(cmd))", ENGINE),  # no shell: the first word is the program
        ("VLLM_USE_V2_MODEL_RUNNER=0 ", "subprocess.Popen(cmd, shell=True)", "None  # transformers only"),  # no vLLM engine
        (
            "VLLM_USE_V2_MODEL_RUNNER=0 ",
            "subprocess.Popen(cmd, shell=True)",
            "os.environ.pop('VLLM_USE_V2_MODEL_RUNNER', None) or LLM(model=args.model_name_or_path)",
        ),  # the program decides the variable itself
    ],
)
def test_a_program_that_decides_or_builds_no_engine_is_silent(tmp_path: Path, prefix: str, run: str, engine: str) -> None:
    files = _harness(prefix, run, engine)
    files["scripts/run_eval_multi_gpus.py"] = "import shlex\n" + files["scripts/run_eval_multi_gpus.py"]
    if engine.startswith("None"):
        files["math_eval.py"] = files["math_eval.py"].replace("from vllm import LLM, SamplingParams", "from transformers import pipeline")
    assert check(tmp_path, files) == []


def test_a_program_the_tree_does_not_hold_is_not_read(tmp_path: Path) -> None:
    files = _harness()
    files["eval/math_eval_v2.py"] = files.pop("math_eval.py")
    assert check(tmp_path, files) == []


# an optional option declared with no default is argparse's None in a test, as a `store_true`
# option's False already decided one

NO_DEFAULT = (
    "import argparse\n"
    "\n"
    "from vllm import LLM\n"
    "\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--logprobs-mode'{declared})\n"
    "args = parser.parse_args()\n"
    "kw = dict(model='Qwen/Qwen2.5-7B', return_sampling_mask=True)\n"
    "if args.logprobs_mode{test}:\n"
    "    kw['logprobs_mode'] = args.logprobs_mode\n"
    "llm = LLM(**kw)\n"
)


@pytest.mark.parametrize("test", ["", " is not None"])
def test_an_option_with_no_default_is_none_in_a_test(tmp_path: Path, test: str) -> None:
    assert check(tmp_path, {"run.py": NO_DEFAULT.format(declared="", test=test)}) == [("run.py", 8, "RPL003")]


@pytest.mark.parametrize("declared", [", required=True", ", default='processed_logprobs'", ", nargs='?', const='processed_logprobs'"])
def test_an_option_the_command_line_must_give_or_with_a_default_is_not_none(tmp_path: Path, declared: str) -> None:
    assert check(tmp_path, {"run.py": NO_DEFAULT.format(declared=declared, test="")}) == []


# arena-hard-auto's gen_answer.py: an OpenAI client whose base_url comes from an endpoint YAML list
# read by a helper, picked with random.choices, handed to a helper of another module through a
# ThreadPoolExecutor

ARENA_UTILS = (
    "import random\n"
    "\n"
    "import openai\n"
    "import yaml\n"
    "\n"
    "\n"
    "def make_config(config_file):\n"
    "    with open(config_file, 'r') as f:\n"
    "        return yaml.load(f, Loader=yaml.SafeLoader)\n"
    "\n"
    "\n"
    "def get_endpoint(endpoint_list):\n"
    "    if endpoint_list is None:\n"
    "        return None\n"
    "    return {pick}\n"
    "\n"
    "\n"
    "def chat_completion_openai(model, messages, temperature, api_dict=None):\n"
    "    if api_dict:\n"
    "        client = openai.OpenAI(base_url=api_dict['api_base'], api_key=api_dict['api_key'])\n"
    "    else:\n"
    "        client = openai.OpenAI()\n"
    "    return client.chat.completions.create(model=model, messages=messages, temperature=temperature)\n"
)
ARENA_MAIN = (
    "import concurrent.futures\n"
    "\n"
    "from utils import chat_completion_openai, get_endpoint, make_config\n"
    "\n"
    "\n"
    "def get_answer(question, endpoint_info, temperature):\n"
    "    api_dict = get_endpoint(endpoint_info['endpoints'])\n"
    "    return chat_completion_openai(endpoint_info['model'], [{{'role': 'user', 'content': question}}], temperature, api_dict=api_dict)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    settings = make_config('config/gen_answer_config.yaml')\n"
    "    endpoint_list = make_config('config/api_config.yaml')\n"
    "    for model in settings['model_list']:\n"
    "        endpoint_info = endpoint_list[model]\n"
    "        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as executor:\n"
    "            {call}\n"
)
SUBMIT = "executor.submit(get_answer, 'Explain the birthday paradox.', endpoint_info, settings['temperature'])"
ENDPOINTS = (
    "qwen2.5-7b-replay:\n"
    "    model: Qwen/Qwen2.5-7B-Instruct\n"
    "    endpoints:\n"
    "        - api_base: {base}\n"
    "          api_key: token-abc123\n"
    "{more}"
)
SERVE = "vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"


def _arena(
    pick: str = "random.choices(endpoint_list)[0]", call: str = SUBMIT, base: str = "http://127.0.0.1:8000/v1", more: str = ""
) -> dict:
    return {
        "utils.py": ARENA_UTILS.format(pick=pick),
        "gen_answer.py": ARENA_MAIN.format(call=call),
        "config/api_config.yaml": ENDPOINTS.format(base=base, more=more),
        "config/gen_answer_config.yaml": "temperature: 0.7\nmodel_list:\n  - qwen2.5-7b-replay\n",
        "scripts/serve.sh": "#!/bin/bash\n" + SERVE,
    }


@pytest.mark.parametrize("pick", ["random.choices(endpoint_list)[0]", "random.choice(endpoint_list)", "endpoint_list[0]"])
@pytest.mark.parametrize("call", [SUBMIT, SUBMIT.replace("executor.submit(get_answer, ", "get_answer(")])
def test_a_client_whose_endpoint_a_yaml_list_gives_is_tied_to_the_server(tmp_path: Path, pick: str, call: str) -> None:
    assert check(tmp_path, _arena(pick, call)) == [("utils.py", 23, "RPL301")]


@pytest.mark.parametrize(
    ("pick", "base", "more"),
    [
        # two endpoints: which one a request goes to is the run's
        (
            "random.choices(endpoint_list)[0]",
            "http://127.0.0.1:8000/v1",
            "        - api_base: http://10.0.0.2:8000/v1\n          api_key: k\n",
        ),
        ("random.choices(endpoint_list, k=2)[0]", "http://127.0.0.1:8000/v1", ""),  # a pick of two
        ("random.choices(endpoint_list)[0]", "${API_BASE}", ""),  # not an address
        ("random.choices(endpoint_list)[0]", "http://127.0.0.1:8001/v1", ""),  # no server there
        ("None", "http://127.0.0.1:8000/v1", ""),  # `openai.OpenAI()`: the environment's OPENAI_BASE_URL
    ],
)
def test_an_endpoint_the_run_picks_or_no_server_serves_is_silent(tmp_path: Path, pick: str, base: str, more: str) -> None:
    assert check(tmp_path, _arena(pick, base=base, more=more)) == []
