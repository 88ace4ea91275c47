"""A client taken from a list of OpenAI clients written in the module (round 20's honcho case: a
`Procfile` starting two replay servers, `_clients = itertools.cycle([OpenAI(base_url=url) for url in
SERVERS])` and `client = next(_clients)` in the rollout function): each call takes the next item, so a
request reaches every item's server, and a chat request to a replay server is RPL301 at the call.
Also `random.choice(CLIENTS)` and `CLIENTS[i % len(CLIENTS)]` (any item), and `next(cycle(CLIENTS))`
made where it is taken, or a cycle taken from in the scope that makes it (the first item only).

Silent: no item is a replay server, the first item alone is taken and is no replay server, a list
read from the environment, a list changed after it is written (`SERVERS.append(...)`, `CLIENTS += ...`),
a comprehension that filters its items."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main

REPLAY = "--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
PROCFILE = (
    f"policy_a: vllm serve Qwen/Qwen3-4B --port 8000 {REPLAY}\n"
    f"policy_b: vllm serve Qwen/Qwen3-4B --port 8001 {REPLAY}\n"
    "reward: python -m rollout.reward --port 9000\n"
)
PLAIN_PROCFILE = "policy_a: vllm serve Qwen/Qwen3-4B --port 8000\npolicy_b: vllm serve Qwen/Qwen3-4B --port 8001\n"
CREATE = 'client.chat.completions.create(model="Qwen/Qwen3-4B", messages=messages, temperature=1.0, logprobs=True)'
URLS = '["http://localhost:8000/v1", "http://localhost:8001/v1"]'
CLIENTS = '[OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY"), OpenAI(base_url="http://localhost:8001/v1", api_key="EMPTY")]'


def found(root: Path) -> list[tuple[str, str, int]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(root)])
    return sorted(
        {
            (item["code"], Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix(), item["location"]["row"])
            for item in json.loads(out.getvalue())
        }
    )


def tree(root: Path, client: str, procfile: str = PROCFILE) -> Path:
    (root / "Procfile").write_text(procfile)
    (root / "rollout").mkdir()
    (root / "rollout" / "client.py").write_text(client)
    return root


def client_module(head: str, body: str) -> str:
    """A rollout module: `head` at the top level, `body` the lines of `rollout(messages)` before its request."""
    lines = ["import itertools", "import os", "import random", "from itertools import cycle", "", "from openai import OpenAI", ""]
    lines += [*head.splitlines(), "", "", "def rollout(messages, i=0):"]
    lines += [f"    {line}" for line in body.splitlines()]
    lines += [f"    response = {CREATE}", "    return response"]
    return "\n".join(lines) + "\n"


def reported_at_request(module: str) -> list[tuple[str, str, int]]:
    line = next(n for n, text in enumerate(module.splitlines(), 1) if "completions.create(" in text)
    return [("RPL301", "rollout/client.py", line)]


# Each spelling's rollout module.
TAKES_TURNS = {
    "cycle_over_comprehension_of_urls": client_module(
        f"SERVERS = {URLS}\n_clients = itertools.cycle([OpenAI(base_url=url, api_key='EMPTY') for url in SERVERS])",
        "client = next(_clients)",
    ),
    "cycle_imported_over_literal_clients": client_module(f"CLIENTS = {CLIENTS}\n_pool = cycle(CLIENTS)", "client = next(_pool)"),
    "random_choice_of_clients": client_module(f"CLIENTS = {CLIENTS}", "client = random.choice(CLIENTS)"),
    "index_modulo_length": client_module(f"CLIENTS = {CLIENTS}", "client = CLIENTS[i % len(CLIENTS)]"),
    "cycle_over_generator_of_urls": client_module(
        f"_clients = itertools.cycle(OpenAI(base_url=u, api_key='EMPTY') for u in {URLS})", "client = next(_clients)"
    ),
}


def test_the_round_20_case_spelling_is_one_of_them() -> None:
    case = Path(__file__).parent / "data" / "rpl3_heldout20" / "honcho_procfile_two_replay_servers_round_robin_chat_client"
    assert "itertools.cycle([OpenAI(base_url=url" in (case / "rollout" / "client.py").read_text()


@pytest.mark.parametrize("spelling", sorted(TAKES_TURNS))
def test_a_chat_client_taking_turns_over_replay_servers_is_reported_at_its_call(tmp_path: Path, spelling: str) -> None:
    assert found(tree(tmp_path, TAKES_TURNS[spelling])) == reported_at_request(TAKES_TURNS[spelling])


def test_every_item_is_reached_so_one_replay_server_among_others_is_enough(tmp_path: Path) -> None:
    module = client_module(
        '_clients = itertools.cycle([OpenAI(base_url=u) for u in ["http://localhost:9100/v1", "http://localhost:8001/v1"]])',
        "client = next(_clients)",
    )
    assert found(tree(tmp_path, module)) == reported_at_request(module)


@pytest.mark.parametrize("first, reported", [("8000", True), ("9100", False)])
def test_a_cycle_made_where_it_is_taken_gives_its_first_item_only(tmp_path: Path, first: str, reported: bool) -> None:
    urls = f'["http://localhost:{first}/v1", "http://localhost:8001/v1"]'
    module = client_module("", f"client = next(itertools.cycle([OpenAI(base_url=u) for u in {urls}]))")
    assert found(tree(tmp_path, module)) == (reported_at_request(module) if reported else [])


def test_a_module_level_next_of_a_module_level_cycle_takes_the_first_item_only(tmp_path: Path) -> None:
    clients = CLIENTS.replace("localhost:8000", "localhost:9100")
    module = client_module(f"_pool = cycle({clients})\nclient = next(_pool)", "")
    assert found(tree(tmp_path, module)) == []


PRECISION_TWINS = {
    "urls_from_the_environment": client_module(
        "SERVERS = os.environ['SERVERS'].split(',')\n_clients = itertools.cycle([OpenAI(base_url=u) for u in SERVERS])",
        "client = next(_clients)",
    ),
    "urls_appended_later": client_module(
        f"SERVERS = {URLS}\nSERVERS.append(os.environ['EXTRA'])\n_clients = cycle([OpenAI(base_url=u) for u in SERVERS])",
        "client = next(_clients)",
    ),
    "clients_grown_later": client_module(
        f"CLIENTS = {CLIENTS}\nCLIENTS += [OpenAI(base_url=os.environ['EXTRA'])]\n_pool = cycle(CLIENTS)", "client = next(_pool)"
    ),
    "clients_replaced_later": client_module(f"CLIENTS = {CLIENTS}\n_pool = cycle(CLIENTS)", "CLIENTS[0] = None\nclient = next(_pool)"),
    "filtered_comprehension": client_module(
        f"_clients = cycle([OpenAI(base_url=u) for u in {URLS} if os.environ.get(u)])", "client = next(_clients)"
    ),
    "index_not_read": client_module(f"CLIENTS = {CLIENTS}", "client = CLIENTS[i]"),
    "clients_set_by_a_function": client_module(
        f"CLIENTS = {CLIENTS}\n\n\ndef configure(urls):\n    global CLIENTS\n    CLIENTS = [OpenAI(base_url=u) for u in urls]",
        "client = random.choice(CLIENTS)",
    ),
    "cycle_set_by_a_function": client_module(
        f"_pool = cycle({CLIENTS})\n\n\ndef configure(urls):\n    global _pool\n    _pool = cycle([OpenAI(base_url=u) for u in urls])",
        "client = next(_pool)",
    ),
}


@pytest.mark.parametrize("spelling", sorted(PRECISION_TWINS))
def test_a_list_not_known_whole_keeps_the_client_unknown(tmp_path: Path, spelling: str) -> None:
    assert found(tree(tmp_path, PRECISION_TWINS[spelling])) == []


@pytest.mark.parametrize("spelling", sorted(TAKES_TURNS))
def test_no_item_a_replay_server_is_silent(tmp_path: Path, spelling: str) -> None:
    assert found(tree(tmp_path, TAKES_TURNS[spelling], PLAIN_PROCFILE)) == []


def url_module(head: str, body: str) -> str:
    """A rollout module whose request is sent to an address `body` picks from `SERVERS`."""
    lines = ["import itertools", "import os", "import random", "", "import requests", "from openai import OpenAI", ""]
    lines += [f"SERVERS = {URLS}", *head.splitlines(), "", "", "def rollout(messages):"]
    return "\n".join([*lines, *(f"    {line}" for line in body.splitlines())]) + "\n"


def posted_at(module: str, words: str) -> list[tuple[str, str, int]]:
    line = next(n for n, text in enumerate(module.splitlines(), 1) if words in text)
    return [("RPL301", "rollout/client.py", line)]


# Each spelling's module, and the words of the line its finding is at.
URL_PICKS = {
    "openai_base_url_next_of_cycle": (
        url_module("_urls = itertools.cycle(SERVERS)", f"client = OpenAI(base_url=next(_urls), api_key='EMPTY')\nreturn {CREATE}"),
        "completions.create(",
    ),
    "openai_base_url_name_of_random_choice": (
        url_module("", f"url = random.choice(SERVERS)\nclient = OpenAI(base_url=url, api_key='EMPTY')\nreturn {CREATE}"),
        "completions.create(",
    ),
    "requests_post_f_string_of_next": (
        url_module(
            "_urls = itertools.cycle(SERVERS)",
            "base = next(_urls)\nbody = {'model': 'Qwen/Qwen3-4B', 'messages': messages}\n"
            "return requests.post(f'{base}/chat/completions', json=body).json()",
        ),
        "requests.post(",
    ),
    "requests_post_sum_of_choice": (
        url_module("", "return requests.post(random.choice(SERVERS) + '/chat/completions', json={'messages': messages}).json()"),
        "requests.post(",
    ),
}


@pytest.mark.parametrize("spelling", sorted(URL_PICKS))
def test_a_chat_request_to_an_address_taken_from_a_list_is_reported(tmp_path: Path, spelling: str) -> None:
    module, words = URL_PICKS[spelling]
    assert found(tree(tmp_path, module)) == posted_at(module, words)


NOT_WHOLE = {
    "from_the_environment": "SERVERS = os.environ['SERVERS'].split(',')",
    "appended_later": f"SERVERS = {URLS}\nSERVERS.append(os.environ['EXTRA'])",
    "replaced_later": f"SERVERS = {URLS}\nSERVERS[:] = os.environ['SERVERS'].split(',')",
}


@pytest.mark.parametrize("spelling", sorted(URL_PICKS))
@pytest.mark.parametrize("listed", sorted(NOT_WHOLE))
def test_an_address_list_not_known_whole_is_silent(tmp_path: Path, spelling: str, listed: str) -> None:
    module = URL_PICKS[spelling][0].replace(f"SERVERS = {URLS}", NOT_WHOLE[listed])
    assert found(tree(tmp_path, module)) == []


@pytest.mark.parametrize("first, reported", [("8000", True), ("9100", False)])
def test_an_address_cycle_made_where_it_is_taken_gives_its_first_item_only(tmp_path: Path, first: str, reported: bool) -> None:
    urls = f'["http://localhost:{first}/v1", "http://localhost:8001/v1"]'
    module = url_module("", f"client = OpenAI(base_url=next(itertools.cycle({urls})))\nreturn {CREATE}")
    assert found(tree(tmp_path, module)) == (posted_at(module, "completions.create(") if reported else [])
