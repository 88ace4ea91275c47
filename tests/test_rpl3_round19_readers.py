"""Round 19's readers (tests/test_rpl3_heldout19.py): what a tree hands a replay server, and what its clients send.

- A shell launch's word that is a JSON file of the tree read by command substitution (`--speculative-config
  "$(cat configs/spec.json)"`, `$(< FILE)`, backquotes, or held by a variable first) is the file's object, each
  key found at its line of the file. An unquoted use (split at the JSON's blanks), a pipeline, an absolute path or a
  file the tree does not hold leaves the word unknown.
- `self.chat.completions.create(...)` in a subclass of `OpenAI` (or `AsyncOpenAI`) goes where its `__init__`'s
  `super().__init__(...)` points, read with each construction of the class in the tree, else with `__init__`'s
  defaults and an empty `**kwargs` as written (`kwargs.setdefault("base_url", URL)` before `super().__init__(
  **kwargs)`), the message saying so. A construction passing another address, or a default the run decides,
  leaves the client untied.
- A Locust user (`class W(HttpUser)`, `FastHttpUser`) whose `host` is written once in its class body posts
  `self.client.post(path)` to that host followed by the path (the message says it holds when locust runs without
  `--host`). A host the run gives, one a method sets, or another port leaves the client untied.
- A dev container's lifecycle commands (`postStartCommand` and the others that run in the container: a string for
  the shell, an array of words, an object of either) are launches, its `image` the release evidence;
  `initializeCommand` (on the host) and other JSON files are not read.
- `curl URL -H 'Content-Type: application/json' -d @body.json` (`--json`, `--data-binary`, an inline `-d '{...}'`)
  in a shell script is a client of the server on the URL's port, the body's fields found in the body file (or at
  the word). A body not sent as JSON, `-G`, a body from stdin or outside the tree, an option not known or another
  port leaves it unread.
- An Apptainer definition file (`*.def` with a `Bootstrap:` header) runs its `%runscript` (and `%startscript`) after
  `%environment`, `From:` its release; `%post` (build time) is no launch.
- `{token_id: -100.0 for token_id in IDS.values()}` over token ids known here (a dict of another module, a list) is
  a `logit_bias` of those ids, found at the comprehension; ids not known, a filter, or biases of 0 leave it silent.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_rpl3_round14_launches import judged

HELD_OUT = Path(__file__).parent / "data" / "rpl3_heldout19"
SPEC_ON = "serve_speculative_config_cat_json_file_synthetic"
SPEC_OFF = "serve_speculative_config_cat_json_file_block_verification_clean"
SERVE = "scripts/serve_policy.sh"
SYNTHETIC = ("RPL306", "configs/spec.json", 6, False)
READ = 'SPEC_CONFIG="$(cat configs/spec.json)"'


def findings(tmp_path: Path, case: str, changes: dict | None = None, added: dict | None = None) -> list[tuple[str, str, int, bool]]:
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / case, tree)
    return judged(tree, changes, added)


# --- a JSON file read by command substitution -----------------------------------------------------


def test_the_spec_file_read_by_cat_asks_for_synthetic_verification(tmp_path: Path) -> None:
    assert findings(tmp_path, SPEC_ON) == [SYNTHETIC]


def test_block_verification_in_the_file_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, SPEC_OFF) == []


@pytest.mark.parametrize(
    "changes",
    [
        {SERVE: (READ, 'SPEC_CONFIG="$(< configs/spec.json)"')},
        {SERVE: (READ, "SPEC_CONFIG=$(cat configs/spec.json)")},
        {SERVE: (READ, "SPEC_CONFIG=`cat 'configs/spec.json'`")},
        {SERVE: ('"$SPEC_CONFIG"', '"$(cat configs/spec.json)"')},
    ],
)
def test_other_spellings_of_the_read(tmp_path: Path, changes: dict) -> None:
    assert findings(tmp_path, SPEC_ON, changes) == [SYNTHETIC]


@pytest.mark.parametrize(
    "changes",
    [
        {SERVE: ('"$SPEC_CONFIG"', "$SPEC_CONFIG")},  # split at the JSON's blanks
        {SERVE: (READ, 'SPEC_CONFIG="$(cat configs/spec.json | jq -c .)"')},
        {SERVE: (READ, 'SPEC_CONFIG="$(cat /etc/vllm/spec.json)"')},
        {SERVE: (READ, 'SPEC_CONFIG="$(cat configs/spec-prod.json)"')},
        {SERVE: (READ, 'SPEC_CONFIG="$(cat "$SPEC_FILE")"')},
    ],
)
def test_a_read_not_known_leaves_the_config_unknown(tmp_path: Path, changes: dict) -> None:
    assert findings(tmp_path, SPEC_ON, changes) == []


# --- an OpenAI subclass with its address as a default ------------------------------------------------

BUDGET_ON = "openai_subclass_chat_thinking_token_budget_in_extra_body"
BUDGET_OFF = "openai_subclass_chat_thinking_budget_only_in_chat_template_kwargs_clean"
CLIENT = "policy/client.py"
BUDGET = ("RPL303", CLIENT, 17, False)
LOCAL = '"http://localhost:8000/v1"'
SET_DEFAULT = f'kwargs.setdefault("base_url", {LOCAL})'
INIT = f"""    def __init__(self, **kwargs) -> None:
        {SET_DEFAULT}
        kwargs.setdefault("api_key", "EMPTY")
        super().__init__(**kwargs)"""


def with_os(old: str, new: str) -> str:
    """The case's client, `os` imported and `old` replaced by `new`."""
    text = (HELD_OUT / BUDGET_ON / CLIENT).read_text(encoding="utf-8")
    assert old in text
    return "import os\n" + text.replace(old, new)


def test_the_subclass_sends_the_thinking_budget_to_its_default_address(tmp_path: Path) -> None:
    assert findings(tmp_path, BUDGET_ON) == [BUDGET]


def test_the_budget_only_as_a_template_variable_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, BUDGET_OFF) == []


@pytest.mark.parametrize(
    ("changes", "added"),
    [
        # the address as a parameter's default
        (
            {
                CLIENT: (
                    INIT,
                    f'    def __init__(self, base_url: str = {LOCAL}, **kwargs) -> None:\n        super().__init__(base_url=base_url, api_key="EMPTY", **kwargs)',
                )
            },
            None,
        ),
        # the async client
        ({CLIENT: ("(OpenAI)", "(AsyncOpenAI)")}, None),
        # a construction in the tree that passes only a timeout
        (None, {"policy/run.py": "from policy.client import PolicyClient\n\nprint(PolicyClient(timeout=600).think('2+2?'))\n"}),
        # a construction passing the server's address itself
        (None, {"policy/run.py": f"from policy.client import PolicyClient\n\nPolicyClient(base_url={LOCAL}).think('hi')\n"}),
    ],
)
def test_other_spellings_of_the_subclass(tmp_path: Path, changes: dict | None, added: dict | None) -> None:
    moved = 2 if changes and "base_url: str" in changes[CLIENT][1] else 0  # two lines fewer
    if changes and "(AsyncOpenAI)" in changes[CLIENT][1]:
        changes = {
            CLIENT: (
                "from openai import OpenAI\n\n\nclass PolicyClient(OpenAI)",
                "from openai import AsyncOpenAI\n\n\nclass PolicyClient(AsyncOpenAI)",
            )
        }
    assert findings(tmp_path, BUDGET_ON, changes, added) == [("RPL303", CLIENT, 17 - moved, False)]


@pytest.mark.parametrize(
    ("changes", "added"),
    [
        (None, {CLIENT: with_os(SET_DEFAULT, 'kwargs.setdefault("base_url", os.environ["POLICY_URL"])')}),
        ({CLIENT: (SET_DEFAULT, SET_DEFAULT.replace("8000", "8001"))}, None),
        (None, {CLIENT: with_os(SET_DEFAULT, f'if os.environ.get("LOCAL_POLICY"):\n            {SET_DEFAULT}')}),
        (
            None,
            {
                "policy/run.py": "import os\nfrom policy.client import PolicyClient\n\nPolicyClient(base_url=os.environ['URL']).think('hi')\n"
            },
        ),
        (None, {"policy/run.py": "from policy.client import PolicyClient\n\nPolicyClient(base_url='http://gpu-2:8000/v1').think('hi')\n"}),
    ],
)
def test_an_address_not_the_servers_leaves_the_subclass_untied(tmp_path: Path, changes: dict | None, added: dict | None) -> None:
    assert findings(tmp_path, BUDGET_ON, changes, added) == []


# --- a Locust user ------------------------------------------------------------------------------

LOCUST_ON = "locust_rollout_load_test_chat_route_on_replay_server"
LOCUST_OFF = "locust_rollout_load_test_generate_route_on_replay_server_clean"
LOCUSTFILE = "loadtest/locustfile.py"
CHAT_ONLY = ("RPL301", LOCUSTFILE, 15, False)
HOST = '    host = "http://localhost:8000"'
POST = 'self.client.post("/v1/chat/completions", json=body, name="rollout")'


def test_the_load_test_samples_only_through_the_chat_route(tmp_path: Path) -> None:
    assert findings(tmp_path, LOCUST_ON) == [CHAT_ONLY]


def test_the_generate_route_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, LOCUST_OFF) == []


def locustfile(*pairs: tuple[str, str]) -> str:
    """The case's locustfile with each (old, new) made."""
    text = (HELD_OUT / LOCUST_ON / LOCUSTFILE).read_text(encoding="utf-8")
    for old, new in pairs:
        assert old in text
        text = text.replace(old, new)
    return text


IMPORT = "from locust import HttpUser, between, task"


@pytest.mark.parametrize(
    ("pairs", "line"),
    [
        ([(HOST, '    host: str = "http://127.0.0.1:8000"')], 15),
        ([(POST, 'self.client.request("POST", "/v1/chat/completions", json=body)')], 15),
        ([(IMPORT, "from locust import between, task\nfrom locust.contrib.fasthttp import FastHttpUser as HttpUser")], 16),
        ([(IMPORT, "import locust\nfrom locust import between, task"), ("(HttpUser)", "(locust.HttpUser)")], 16),
    ],
)
def test_other_spellings_of_the_user(tmp_path: Path, pairs: list, line: int) -> None:
    assert findings(tmp_path, LOCUST_ON, added={LOCUSTFILE: locustfile(*pairs)}) == [("RPL301", LOCUSTFILE, line, False)]


@pytest.mark.parametrize(
    "changes",
    [
        {LOCUSTFILE: (HOST, '    host = __import__("os").environ["TARGET_HOST"]')},
        {LOCUSTFILE: (HOST, HOST.replace("8000", "8001"))},
        {LOCUSTFILE: ("    @task", '    def on_start(self) -> None:\n        self.host = "http://10.0.0.7:8000"\n\n    @task')},
        {LOCUSTFILE: (POST, POST.replace('"/v1/chat', '"http://localhost:9000/v1/chat'))},
        {LOCUSTFILE: ("class RolloutWorker(HttpUser):", "class RolloutWorker:")},
    ],
)
def test_a_host_not_the_servers_leaves_the_user_untied(tmp_path: Path, changes: dict) -> None:
    assert findings(tmp_path, LOCUST_ON, changes) == []


# --- a dev container's server and a curl client ---------------------------------------------------

CURL_ON = "devcontainer_poststart_server_curl_body_json_top_k_equal_text_config_vocab"
CURL_OFF = "devcontainer_poststart_server_curl_body_json_top_k_below_checkpoint_vocab_clean"
DEVCONTAINER, PROBE = ".devcontainer/devcontainer.json", "scripts/probe.sh"
AT_VOCAB = ("RPL304", "requests/generate.json", 5, False)
START = '"postStartCommand": "nohup vllm serve ./models/policy --port 8000 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out > /tmp/vllm.log 2>&1 &"'
SERVE_WORDS = '"vllm", "serve", "./models/policy", "--port", "8000", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"'
BODY = "  -d @requests/generate.json"
HEADER = "  -H 'Content-Type: application/json' \\\n"


def test_the_curl_body_asks_for_the_whole_vocabulary(tmp_path: Path) -> None:
    assert findings(tmp_path, CURL_ON) == [AT_VOCAB]


def test_a_top_k_below_the_vocabulary_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, CURL_OFF) == []


@pytest.mark.parametrize(
    "changes",
    [
        {DEVCONTAINER: (START, START.replace("postStartCommand", "postCreateCommand"))},
        {DEVCONTAINER: (START, '"postStartCommand": {"server": ' + START.partition(": ")[2] + "}")},
        {DEVCONTAINER: (START, f'"postStartCommand": [{SERVE_WORDS}]')},
        {PROBE: (BODY, "  --data-binary @requests/generate.json")},
        {PROBE: (HEADER + BODY, "  --json @requests/generate.json")},
        {PROBE: (BODY, "  -X POST -d @requests/generate.json")},
    ],
)
def test_other_spellings_of_the_server_and_the_client(tmp_path: Path, changes: dict) -> None:
    assert findings(tmp_path, CURL_ON, changes) == [AT_VOCAB]


def test_an_inline_body_is_found_at_its_word(tmp_path: Path) -> None:
    inline = """  -d '{"token_ids": [1, 2], "sampling_params": {"top_k": 151936, "max_tokens": 8}}'"""
    assert findings(tmp_path, CURL_ON, {PROBE: (BODY, inline)}) == [("RPL304", PROBE, 7, False)]


@pytest.mark.parametrize(
    "changes",
    [
        {DEVCONTAINER: (START, START.replace("postStartCommand", "initializeCommand"))},
        {DEVCONTAINER: (START, START.replace("8000", "8001"))},
        {PROBE: (HEADER, "")},  # a form body: vLLM refuses it
        {PROBE: (BODY, "  -G -d @requests/generate.json")},
        {PROBE: (BODY, "  -d @- < requests/generate.json")},
        {PROBE: (BODY, "  -d @/srv/requests/generate.json")},
        {PROBE: (BODY, "  --unix-socket /tmp/vllm.sock -d @requests/generate.json")},
        {PROBE: ("localhost:8000", "localhost:9000")},
    ],
)
def test_a_client_not_read_or_not_the_servers_is_silent(tmp_path: Path, changes: dict) -> None:
    assert findings(tmp_path, CURL_ON, changes) == []


def test_another_json_file_is_no_dev_container(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / CURL_ON, tree)
    (tree / DEVCONTAINER).rename(tree / ".devcontainer" / "settings.json")
    assert judged(tree) == []


# --- an Apptainer server and a logit_bias comprehension -------------------------------------------

BIAS_ON = "apptainer_runscript_server_httpx_generate_logit_bias_from_token_ids"
BIAS_OFF = "apptainer_runscript_server_httpx_generate_logit_bias_all_zero_clean"
GENERATE, DEF = "rollout/generate.py", "replay.def"
BIASES = ("RPL302", GENERATE, 9, False)
COMPREHENSION = "SUPPRESS = {token_id: -100.0 for token_id in SPECIAL_TOKEN_IDS.values()}"
RUN = "%runscript\n    exec vllm serve"


def test_the_comprehension_biases_the_special_tokens(tmp_path: Path) -> None:
    assert findings(tmp_path, BIAS_ON) == [BIASES]


def test_neutral_biases_are_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, BIAS_OFF) == []


@pytest.mark.parametrize(
    ("changes", "line"),
    [
        ({GENERATE: (COMPREHENSION, "SUPPRESS = {i: -100 for i in [151643, 151644]}")}, 9),
        ({GENERATE: (COMPREHENSION, "SUPPRESS = {i: 5 for i in (151643, 151645)}")}, 9),
        ({GENERATE: (COMPREHENSION, "BIAS = -100.0\nSUPPRESS = {i: BIAS for i in SPECIAL_TOKEN_IDS.values()}")}, 10),
        ({DEF: (RUN, "%startscript\n    exec vllm serve")}, 9),
        ({DEF: ("%runscript\n", "%post\n    pip install httpx\n\n%runscript\n")}, 9),
    ],
)
def test_other_spellings_of_the_biases_and_the_server(tmp_path: Path, changes: dict, line: int) -> None:
    assert findings(tmp_path, BIAS_ON, changes) == [("RPL302", GENERATE, line, False)]


@pytest.mark.parametrize(
    "changes",
    [
        {GENERATE: (COMPREHENSION, "SUPPRESS = {i: -100.0 for i in SPECIAL_TOKEN_IDS.values() if i > 200000}")},
        {GENERATE: (COMPREHENSION, "SUPPRESS = {i: -100.0 for i in __import__('json').load(open('ids.json'))}")},
        {GENERATE: (COMPREHENSION, "SUPPRESS = {i: 0 for i in (151643, 151645)}")},
        {DEF: (RUN, "%post\n    exec vllm serve")},
        {DEF: ("Bootstrap: docker\n", "")},
    ],
)
def test_biases_not_known_or_no_server_are_silent(tmp_path: Path, changes: dict) -> None:
    assert findings(tmp_path, BIAS_ON, changes) == []
