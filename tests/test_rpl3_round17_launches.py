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
- An OpenAI client a factory of another module returns in a tuple (`client, model = policy_client()`, `return
  client, section["model"]`) is that item of the tuple; a file whose only sign of a client is
  `chat.completions.with_raw_response.create(` is read for clients. A starred target, another item, or a server
  published on another port leaves the client untied.
- A `docker run` that publishes ports (`-p`) is reached at `localhost:PORT` only where it publishes the server's
  port on itself (`-p 8000:8000`, `-p 127.0.0.1:8000:8000`, `--publish=8000:8000`) or runs on the host's network,
  as compose's `ports:`; not `-p 8001:8000`, an ephemeral `-p 8000`, or a port a variable chooses.
- Kubernetes: a `--config` file under an `emptyDir` volume that one init container of the pod writes with a
  heredoc in its `sh -c` script (`cat > PATH <<EOF`, `cat <<'EOF' > PATH`) is read from the heredoc's lines,
  findings there. A body the shell would expand (`$`, with the delimiter unquoted), an append, another init
  container on the volume, a volume that does not start empty, or a script naming the path twice leaves it unread.
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
RAW_ON = "openai_factory_ini_base_url_with_raw_response_stream_chat"
RAW_OFF = "openai_factory_ini_base_url_other_host_with_raw_response_clean"
ROLLOUT, FACTORY = "agent/rollout.py", "agent/llm_clients.py"
UNPACKED = "    client, model = policy_client()\n"


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


# --- an OpenAI client from a factory's tuple, streaming through with_raw_response ----------------


def test_chat_through_the_factory_client_never_sees_the_masks(tmp_path: Path) -> None:
    assert findings(tmp_path, RAW_ON) == [("RPL301", ROLLOUT, 6, False)]


def test_a_base_url_at_another_host_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, RAW_OFF) == []


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        (ROLLOUT, "with_raw_response", "with_streaming_response"),
        (ROLLOUT, UNPACKED, "    client = policy_client()[0]\n    model = policy_client()[1]\n"),
        (FACTORY, 'return client, section["model"]', 'return (client, section["model"])'),
    ],
)
def test_other_spellings_of_the_factory_client(tmp_path: Path, name: str, old: str, new: str) -> None:
    assert findings(tmp_path, RAW_ON, {name: (old, new)}) == [("RPL301", ROLLOUT, 6 + (name == ROLLOUT and old == UNPACKED), False)]


def test_the_other_order_of_the_tuple(tmp_path: Path) -> None:
    changes = {
        ROLLOUT: (UNPACKED, "    model, client = policy_client()\n"),
        FACTORY: ('client, section["model"]', 'section["model"], client'),
    }
    assert findings(tmp_path, RAW_ON, changes) == [("RPL301", ROLLOUT, 6, False)]


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        (ROLLOUT, UNPACKED, "    model, client = policy_client()\n"),  # the model name, not the client
        (ROLLOUT, UNPACKED, "    client, *rest = policy_client()\n    model = rest[0]\n"),
        (FACTORY, 'base_url=section["base_url"]', 'base_url=os.environ["POLICY_URL"]'),  # the run gives it
        ("scripts/docker-run.sh", "-p 8000:8000", "-p 8001:8000"),  # published on another port
    ],
)
def test_a_client_not_known_stays_untied(tmp_path: Path, name: str, old: str, new: str) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / RAW_ON, tree)
    (tree / FACTORY).write_text("import os\n" + (tree / FACTORY).read_text(encoding="utf-8"), encoding="utf-8")
    assert judged(tree, {name: (old, new)}) == []


@pytest.mark.parametrize(
    ("published", "tied"),
    [
        ("-p 127.0.0.1:8000:8000", True),
        ("--publish=8000:8000", True),
        ("-p 8001:8000 --network host", True),
        ("-p 8000", False),  # an ephemeral port of the host
        ('-p "$HOST_PORT:8000"', False),
        ("-p 9000:9000", False),
    ],
)
def test_the_port_docker_run_publishes_decides_the_tie(tmp_path: Path, published: str, tied: bool) -> None:
    found = findings(tmp_path, RAW_ON, {"scripts/docker-run.sh": ("-p 8000:8000", published)})
    assert found == ([("RPL301", ROLLOUT, 6, False)] if tied else [])


# --- an init container writes the --config file with a heredoc ------------------------------------

INIT_ON = "statefulset_init_container_writes_config_trace_replay"
INIT_OFF = "statefulset_init_container_writes_config_no_trace_replay_clean"
STATEFULSET = "k8s/statefulset.yaml"
WRITE = "cat > /etc/vllm/config.yaml <<EOF"
TRACE = ("RPL305", STATEFULSET, 31, False)


def test_the_config_the_init_container_writes_turns_trace_replay_on(tmp_path: Path) -> None:
    assert findings(tmp_path, INIT_ON) == [TRACE]


def test_a_written_config_without_trace_replay_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, INIT_OFF) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (WRITE, "cat <<'EOF' > /etc/vllm/config.yaml"),
        (WRITE, 'cat >/etc/vllm/config.yaml <<"EOF"'),
        ('command: ["/bin/sh", "-c"]', 'command: ["sh", "-c"]'),
        (WRITE, "set -eu\n              mkdir -p /etc/vllm\n              " + WRITE),
    ],
)
def test_other_spellings_of_the_heredoc(tmp_path: Path, old: str, new: str) -> None:
    assert findings(tmp_path, INIT_ON, {STATEFULSET: (old, new)}) == [(TRACE[0], TRACE[1], TRACE[2] + new.count("\n"), False)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("port: 8000\n", "port: $PORT\n"),  # the shell expands it: the file is not known
        (WRITE, "cat >> /etc/vllm/config.yaml <<EOF"),  # appended to whatever is there
        (WRITE, "cat > /etc/vllm/other.yaml <<EOF"),  # another file
        ("          emptyDir: {}", "          persistentVolumeClaim:\n            claimName: vllm-config"),
        ("              EOF\n", "              EOF\n              sed -i s/true/false/ /etc/vllm/config.yaml\n"),
        (
            "      containers:\n",
            "        - name: overwrite\n          image: busybox:1.36\n          command: [cp, /defaults/config.yaml, /etc/vllm/]\n"
            "          volumeMounts:\n            - name: vllm-config\n              mountPath: /etc/vllm\n      containers:\n",
        ),
    ],
)
def test_a_file_not_known_whole_stays_unread(tmp_path: Path, old: str, new: str) -> None:
    assert findings(tmp_path, INIT_ON, {STATEFULSET: (old, new)}) == []
