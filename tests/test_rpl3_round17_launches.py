"""Round 17's launches (tests/test_rpl3_heldout17.py): what a tree hands a replay server, and what its clients send.

- A Python launcher's own `vllm serve` word list whose `--speculative-config` word is `json.dumps` of a dict a
  function of the module builds from `os.environ.get(NAME, default)`s: each key's default decides when the
  variable is unset (the message says so), at the default's line. A variable the module writes, a dotenv file it
  loads, or a read without a default keeps the key unknown.
- A `requests.Session` (or `httpx.Client`) subclass of the tree whose `request` override hands `super().request`
  the URL made from its own (`f"{self.base_url}{url}"`): `.post(path)` of its object goes to that URL, read with
  the construction's arguments. A base URL the run gives, or an override that computes the URL otherwise, leaves
  the client untied.
- `{key: config[key] for key in NAMES if key in config}` over names spelt out keeps the names a mapping known
  whole holds (a `generation_config.json` of the tree read with `json.loads`/`json.load`); a mapping not known
  whole leaves the result open.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_rpl3_round14_launches import judged

HELD_OUT = Path(__file__).parent / "data" / "rpl3_heldout17"
SPEC_ON = "python_launcher_speculative_config_from_env_defaults_synthetic"
SPEC_OFF = "python_launcher_speculative_config_from_env_defaults_standard_clean"
POLICY = "launch_policy.py"
LOSSY = ("RPL306", POLICY, 13, True)
VERIFY = 'os.environ.get("SPEC_VERIFY", "synthetic")'
SESSION_ON = "session_subclass_generate_body_from_generation_config_json_repetition"
SESSION_OFF = "session_subclass_generate_body_from_generation_config_json_clean"
GENERATE, SESSION = "rollout/generate.py", "rollout/session.py"
PENALTY = ("RPL302", "assets/generation_config.json", 9, False)
PREFIX = 'f"{self.base_url}{url}"'


def findings(tmp_path: Path, case: str, changes: dict | None = None, added: dict | None = None) -> list[tuple[str, str, int, bool]]:
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / case, tree)
    return judged(tree, changes, added)


# --- a speculative config built from environment defaults ---------------------------------------


def test_the_default_of_the_verification_variable_decides_when_it_is_unset(tmp_path: Path) -> None:
    assert findings(tmp_path, SPEC_ON) == [LOSSY]


def test_a_standard_default_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, SPEC_OFF) == []


@pytest.mark.parametrize(
    "spelling",
    [
        'os.getenv("SPEC_VERIFY", "synthetic")',
        'os.environ.get("SPEC_VERIFY", default="synthetic")',
        'os.getenv("SPEC_VERIFY", "fly")',
    ],
)
def test_other_spellings_of_the_default(tmp_path: Path, spelling: str) -> None:
    assert findings(tmp_path, SPEC_ON, {POLICY: (VERIFY, spelling)}) == [LOSSY]


def test_a_dict_spelt_in_the_word_list_reads_the_same(tmp_path: Path) -> None:
    launcher = (
        "import json\nimport os\nimport subprocess\n\n\ndef main():\n    subprocess.Popen(\n        [\n"
        '            "vllm", "serve", "Qwen/Qwen3-8B", "--return-sampling-mask", "--enable-scale-out",\n'
        '            "--logprobs-mode", "processed_logprobs", "--speculative-config",\n'
        '            json.dumps({"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4,\n'
        '                        "rejection_sample_method": os.getenv("VERIFY", "fly")}),\n'
        "        ]\n    ).wait()\n"
    )
    assert findings(tmp_path, SPEC_OFF, added={POLICY: launcher}) == [("RPL306", POLICY, 12, True)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (VERIFY, 'os.environ["SPEC_VERIFY"]'),  # no default: the run decides
        ("import sys\n", 'import sys\n\nos.environ["SPEC_VERIFY"] = sys.argv[1]\n'),  # the module writes it
        ("import sys\n", "import sys\n\nfrom dotenv import load_dotenv\n\nload_dotenv()\n"),  # a file read at run time
        (VERIFY, 'os.environ.get("SPEC_VERIFY", "standard")'),
    ],
)
def test_a_value_the_run_gives_stays_open(tmp_path: Path, old: str, new: str) -> None:
    assert findings(tmp_path, SPEC_ON, {POLICY: (old, new)}) == []


def test_without_the_mask_it_is_silent(tmp_path: Path) -> None:
    assert findings(tmp_path, SPEC_ON, {POLICY: ('        "--return-sampling-mask",\n', "")}) == []


# --- a session subclass prefixing its URLs, a body copied from generation_config.json -------------


def test_the_checkpoint_penalty_reaches_the_replay_server_through_the_session(tmp_path: Path) -> None:
    assert findings(tmp_path, SESSION_ON) == [PENALTY]


def test_a_generation_config_without_a_penalty_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, SESSION_OFF) == []


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        (SESSION, PREFIX, "self.base_url + url"),
        (SESSION, "requests.Session", "requests.sessions.Session"),
        (GENERATE, "json.loads(GENERATION_CONFIG.read_text())", "json.load(open(GENERATION_CONFIG))"),
        (GENERATE, " if key in config}", " if key in config.keys()}"),
    ],
)
def test_other_spellings_of_the_session_and_the_copy(tmp_path: Path, name: str, old: str, new: str) -> None:
    assert findings(tmp_path, SESSION_ON, {name: (old, new)}) == [PENALTY]


def test_an_httpx_client_subclass_prefixing_its_urls(tmp_path: Path) -> None:
    session = (
        "import httpx\n\n\nclass ReplaySession(httpx.Client):\n    def __init__(self, root):\n        super().__init__(timeout=60)\n"
        "        self.root = root\n\n    def request(self, method, url, **kwargs):\n"
        "        return super().request(method, self.root + url, **kwargs)\n"
    )
    assert findings(tmp_path, SESSION_ON, added={SESSION: session}) == [PENALTY]


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        (GENERATE, 'ReplaySession("http://localhost:8000")', 'ReplaySession(os.environ["POLICY_URL"])'),  # the run gives it
        (GENERATE, 'ReplaySession("http://localhost:8000")', 'ReplaySession("http://localhost:9000")'),  # another server
        (SESSION, PREFIX, "self.route(url)"),  # a URL the reader cannot make
        (SESSION, PREFIX, "url"),  # no prefix: a relative path requests refuses
        (GENERATE, " if key in config}", " if key in config and key not in excluded()}"),  # a filter not decided
    ],
)
def test_a_url_or_a_filter_not_known_stays_silent(tmp_path: Path, name: str, old: str, new: str) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / SESSION_ON, tree)
    text = (tree / GENERATE).read_text(encoding="utf-8")
    (tree / GENERATE).write_text(text.replace("import json\n", "import json\nimport os\n", 1), encoding="utf-8")
    assert judged(tree, {name: (old, new)}) == []
