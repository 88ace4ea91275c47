"""What held-out round 18 (tests/data/python_flow/h18_*) made the value flow follow in command lines:
a config file's mapping whose keys become `--key value` words of a `vllm serve` argv the program
starts with `subprocess` (llama-cookbook's `start_vllm_server.py`): the file named from the
module's own place by a helper (`str(config_path) if config_path.exists() else None`), chosen by
`args.config or find_config_file()` (`--config` declared with no default: argparse's None where the
command line does not give it), read by another helper (`with open(path) as f: return
yaml.safe_load(f)`), the keys `params` takes (`parser.get_default("port")`) filtered out by a
comprehension. The prefilter now finds `["vllm", "serve", ...]` word lists (its pattern was matched
from `serve`, never from the quote before `vllm`).
Each stop stays silent: a `--config` with a default of its own, a required `--config`, one the
program sets from the environment, a config file not where the module names it, the scale-out
route open."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

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
