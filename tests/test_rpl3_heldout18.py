"""Eighteenth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout18/ is a small tree written the way users start replay servers and send
requests, imitating public docs and code (vLLM's own tests/utils.py `RemoteOpenAIServer` and pytest fixtures that
`subprocess.Popen` a server, vLLM's "Using Docker" with compose's `env_file:`, the OpenAI SDK's `default_headers` and
`default_query`, vLLM's "Serve with a config file" run through `uv run` with a command-line override that wins,
`python -m vllm.entrypoints.openai.api_server`, Gradio and Streamlit apps calling a local server, a JSON Schema's
`default` values, PEP 584's `|`, `pipx run --spec` with dotted `--speculative-config.KEY` words), in spellings the
earlier rounds' folder names do not show: the mask launched by a conftest fixture without scale-out (and with it);
an OpenAI client from a factory with default headers and query, chatting with a compose server (and another host);
a presence penalty in a CLI `--override-generation-config` that replaces the `--config` YAML's (and a YAML penalty
replaced by a CLI override without one); a presence penalty from a JSON schema's `default` in a Gradio app's
`/inference/v1/generate` body (and 0.0); a thinking budget merged with `|` (and -1); a Streamlit app's top_k equal
to the tree's checkpoint `vocab_size` (and 64); trace replay in a serve-argument list a `RemoteOpenAIServer`-like
helper class launches (and without it); `fly` verification in dotted words of an extension-less pipx script (and
`standard`). Each `README` says what it imitates and which vLLM 0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public docs cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): every engine starts (the server with `--reasoning-parser qwen3`
judged without it, for which the stand-in model has no tokenizer; the `--config` launches with their YAML files;
the `python -m vllm.entrypoints...` launches as the same `vllm serve` words). A finding that rests on a value
written elsewhere is expected at that value's line (a schema's `default`, a dict merged with `|`, a settings
module), a client's finding at its call, a launch's finding at the word that decides it (for the `--config`
launch, the command-line override that wins).

First run (the lead, on the integration branch merge-s42 at acce696, after round 17's fixes): 12 of 16 cases as
expected (75%); of 8 expected findings 5 exact, 3 missed (PENDING); 1 false finding (the clean twin's YAML
`override-generation-config` penalty, which the command line's own `--override-generation-config` replaces: vLLM puts
the config file's words first and the last word of an option wins); 7 of 8 clean cases clean.
After the lead's fixes (tests/test_vllm_config_launchers.py): the two `--config` cases pass, no expectation changed (the
script's `cd "$(dirname "$0")/.."` tells where its relative `--config` path is read; a config checked on its own is
judged by the scripts of its tree that load it, those beside it first). 14 of 16; two wait (PENDING).
Then (tests/test_rpl3_round18_readers.py): the last two pass, no expectation changed. The Gradio app as written
sends the schema's defaults (its one input is the token ids; no value a user gives reaches `sampling_params`), read
through the dict comprehension over the schema's properties; the pipx script's `pipx run --spec ... vllm serve`
is read as `vllm serve` (the `#!/bin/sh` file kind and the dotted words were read already). 16 of 16.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout18"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "conftest_popen_fixture_serve_mask_generate_client_without_scale_out": {("RPL301", "tests/conftest.py", 13)},
    "conftest_popen_fixture_serve_mask_generate_client_with_scale_out_clean": set(),
    "compose_env_file_server_openai_client_default_query_headers_chat": {("RPL301", "rollout/sample.py", 7)},
    "compose_env_file_server_openai_client_default_query_other_host_clean": set(),
    # 2. requests that shift the distribution
    "uv_run_serve_config_yaml_cli_override_generation_presence_wins": {("RPL302", "scripts/serve.sh", 6)},
    "uv_run_serve_config_yaml_penalty_replaced_by_cli_override_clean": set(),
    "gradio_app_generate_sampling_params_from_json_schema_default_presence": {("RPL302", "schemas/sampling.schema.json", 9)},
    "gradio_app_generate_sampling_params_from_json_schema_default_neutral_clean": set(),
    # 3. thinking budget
    "api_server_module_generate_thinking_budget_merged_with_pipe": {("RPL303", "rollout/worker.py", 6)},
    "api_server_module_generate_thinking_budget_unlimited_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "streamlit_app_generate_top_k_equal_to_checkpoint_vocab": {("RPL304", "ui/settings.py", 2)},
    "streamlit_app_generate_top_k_below_checkpoint_vocab_clean": set(),
    # 5. trace replay
    "remote_server_helper_class_fixture_args_trace_replay": {("RPL305", "tests/conftest.py", 11)},
    "remote_server_helper_class_fixture_args_no_trace_replay_clean": set(),
    # 6. lossy speculative verification
    "pipx_run_serve_dotted_speculative_config_fly": {("RPL306", "bin/serve-replay", 11)},
    "pipx_run_serve_dotted_speculative_config_standard_clean": set(),
}

# Cases waiting for a change, each with the reason; run as strict xfail.
PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_a_third_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED, 16)


def test_every_case_says_what_it_imitates() -> None:
    assert_each_readme_says_what_it_imitates(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str) -> None:
    assert_case_findings(CORPUS, EXPECTED, case)
