"""Readings added for the tenth held-out RPL3xx round (tests/test_rpl3_heldout10.py): a module of a
package reads a config file by a path from the working folder (`json.loads(Path("config/x.json")
.read_text())`, `open("configs/x.yaml")`), which is where `python -m pkg.module` runs to import it:
the folder that holds its top package. The file's values reach the requests it sends (a base URL,
a body), so a client is tied to the replay server the URL names. A script in no package, a file only
beside the module, a path from the command line or the environment keep the client unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_command_lines import findings

REPLAY = "--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
PROCFILE = f"policy: vllm serve Qwen/Qwen3-8B --port 8000 {REPLAY}\nrollout: python -m rollout.client\n"
DEFAULTS = 'DEFAULT_SAMPLING = {\n    "temperature": 1.0,\n    "top_k": 64,\n    "repetition_penalty": PENALTY,\n}\n'
ENDPOINTS_JSON = '{\n  "policy": "http://127.0.0.1:PORT",\n  "timeout_s": 600\n}\n'
ENDPOINTS_YAML = "policy: http://127.0.0.1:PORT\ntimeout_s: 600\n"
CLIENT = (
    "import json\nimport os\nimport sys\nfrom pathlib import Path\n\nimport requests\nimport yaml\n\n"
    "from rollout.sampling_defaults import DEFAULT_SAMPLING\n\n"
    "LOAD\n\n\n"
    "def sample(token_ids, seed):\n"
    '    body = {"token_ids": token_ids, "sampling_params": {**DEFAULT_SAMPLING, "seed": seed}}\n'
    "    return requests.post(f\"{ENDPOINTS['policy']}/inference/v1/generate\", json=body, timeout=600).json()\n"
)
THE_CASE = 'ENDPOINTS = json.loads(Path("config/endpoints.json").read_text())'


def _tree(load: str = THE_CASE, penalty: str = "1.05", port: str = "8000", config: str = "config/endpoints.json") -> dict[str, str]:
    written = ENDPOINTS_YAML if config.endswith(".yaml") else ENDPOINTS_JSON
    return {
        "Procfile": PROCFILE,
        config: written.replace("PORT", port),
        "rollout/__init__.py": "",
        "rollout/sampling_defaults.py": DEFAULTS.replace("PENALTY", penalty),
        "rollout/client.py": CLIENT.replace("LOAD", load),
    }


@pytest.mark.parametrize(
    ("load", "config"),
    [
        pytest.param(THE_CASE, "config/endpoints.json", id="the case: json.loads of Path(...).read_text()"),
        pytest.param(
            'with open("config/endpoints.yaml") as fh:\n    ENDPOINTS = yaml.safe_load(fh)',
            "config/endpoints.yaml",
            id="with open() and yaml",
        ),
        pytest.param('ENDPOINTS = json.load(open("config/endpoints.json"))', "config/endpoints.json", id="json.load of open()"),
        pytest.param(
            'ENDPOINTS_FILE = "config/endpoints.json"\nENDPOINTS = json.loads(Path(ENDPOINTS_FILE).read_text())',
            "config/endpoints.json",
            id="the path in a module constant",
        ),
    ],
)
def test_a_base_url_from_a_config_file_under_the_package_ties_the_client(tmp_path: Path, load: str, config: str) -> None:
    assert findings(tmp_path, _tree(load, config=config)) == [("RPL302", "sampling_defaults.py", 4)]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        pytest.param({"penalty": "1.0"}, "no penalty", id="neutral penalty"),
        pytest.param({"port": "9000"}, "the URL names no replay server", id="another port"),
        pytest.param({"config": "rollout/config/endpoints.json"}, "beside the module, not where it runs", id="file beside the module"),
        pytest.param({"load": "ENDPOINTS = json.loads(Path(sys.argv[1]).read_text())"}, "the command line's path", id="path from argv"),
        pytest.param(
            {"load": 'ENDPOINTS = json.loads(Path(os.environ["ENDPOINTS"]).read_text())'}, "the environment's path", id="path from env"
        ),
        pytest.param(
            {
                "load": 'PATH = "config/endpoints.json"\nif os.environ.get("STAGING"):\n    PATH = "config/staging.json"\n'
                "ENDPOINTS = json.loads(Path(PATH).read_text())"
            },
            "a path chosen at run time",
            id="path chosen by a branch",
        ),
    ],
)
def test_a_config_file_the_run_decides_leaves_the_client_unknown(tmp_path: Path, change: dict[str, str], why: str) -> None:
    assert findings(tmp_path, _tree(**change)) == [], why


def test_a_script_in_no_package_keeps_its_working_folder_unknown(tmp_path: Path) -> None:
    files = _tree()
    del files["rollout/__init__.py"]
    files["Procfile"] = PROCFILE.replace("python -m rollout.client", "python rollout/client.py")
    files["rollout/client.py"] = files["rollout/client.py"].replace("from rollout.sampling_defaults", "from sampling_defaults")
    assert findings(tmp_path, files) == []


def test_a_server_without_the_mask_is_no_replay_server(tmp_path: Path) -> None:
    files = _tree()
    files["Procfile"] = PROCFILE.replace(REPLAY, "--enable-scale-out")
    assert findings(tmp_path, files) == []
