"""Nineteenth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout19/ is a small tree written the way users start replay servers and send
requests, imitating public docs and code (click and typer commands that assemble `vllm serve` argv, a `ServerConfig`
dataclass rendered to flags, vLLM's "Serve with a config file" from a Makefile target with `VLLM_*` environment
overrides, the OpenAI SDK's `with_options(...)` and a subclass of `OpenAI`, `functools.partial` over
`chat.completions.create`, httpx's `base_url` read from a YAML config, the OpenAI cookbook's `logit_bias` over token
ids, Qwen3's `chat_template_kwargs`, an Apptainer `%runscript`, a devcontainer `postStartCommand`, `curl -d @body.json`,
`--speculative-config "$(cat spec.json)"`, a Locust load test), in spellings the earlier rounds' folder names do not
show: the mask asked for in a click command's argv without scale-out (and with it); a Locust rollout load test that
samples only through the chat route of a replay server (and through `/inference/v1/generate`); a presence penalty
pre-bound by `functools.partial` on a client copied `with_options` (and 0.0); a `logit_bias` built by a comprehension
over pinned tokenizer ids, the client's base URL in a YAML file (and every bias 0.0); a thinking budget in an
`OpenAI` subclass's `extra_body` (and the budget only as a chat-template variable, which vLLM passes to the template
alone); a curl body's top_k equal to the tree's checkpoint `text_config.vocab_size` (and 32000 below it); trace
replay turned on by a dataclass field's default (and off); `synthetic` verification in a JSON file read by `$(cat ...)`
(and `block`). Each `README` says what it imitates and which vLLM 0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public docs cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): every engine starts (the `--config` launch with its YAML file and
the Makefile's `VLLM_*` variables; Qwen/Qwen3-0.6B given its real `max_position_embeddings` of 40960 for the
`--max-model-len 8192` launches, the stand-in's 2048 being too short; the server with `--reasoning-parser qwen3`
judged without it, for which the stand-in model has no tokenizer; the devcontainer's Qwen2.5-VL checkpoint judged
with a text stand-in of the same vocabulary, the judge's virtualenv lacking torchvision to inspect a multimodal
architecture). The requests' `SamplingParams` were built in the judge's vLLM 0.34.0 too. A finding that rests on a
value written elsewhere is expected at that value's line (the comprehension of biases, the body file's `top_k`, the
spec file's `rejection_sample_method`), a client's finding at its call (for the partial, the line that binds the
penalty to `create`), a launch's finding at the word that decides it (the mask words of the click argv, the
trace-replay flag the dataclass's default appends).
First run (stop 43, on main 30d26b1): 13 of 18 tests passed; of 8 expected findings 3 exact, 5 missed (PENDING), 0 false;
8 of 8 clean cases clean.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout19"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "click_cli_assembles_serve_argv_mask_without_scale_out": {("RPL301", "launcher/cli.py", 15)},
    "click_cli_assembles_serve_argv_mask_with_scale_out_clean": set(),
    "locust_rollout_load_test_chat_route_on_replay_server": {("RPL301", "loadtest/locustfile.py", 15)},
    "locust_rollout_load_test_generate_route_on_replay_server_clean": set(),
    # 2. requests that shift the distribution
    "makefile_serve_config_yaml_env_override_partial_chat_presence_penalty": {("RPL302", "rollout/run.py", 8)},
    "makefile_serve_config_yaml_env_override_partial_chat_neutral_penalty_clean": set(),
    "apptainer_runscript_server_httpx_generate_logit_bias_from_token_ids": {("RPL302", "rollout/generate.py", 9)},
    "apptainer_runscript_server_httpx_generate_logit_bias_all_zero_clean": set(),
    # 3. thinking budget
    "openai_subclass_chat_thinking_token_budget_in_extra_body": {("RPL303", "policy/client.py", 17)},
    "openai_subclass_chat_thinking_budget_only_in_chat_template_kwargs_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "devcontainer_poststart_server_curl_body_json_top_k_equal_text_config_vocab": {("RPL304", "requests/generate.json", 5)},
    "devcontainer_poststart_server_curl_body_json_top_k_below_checkpoint_vocab_clean": set(),
    # 5. trace replay
    "typer_serverconfig_dataclass_rendered_to_flags_trace_replay_default_on": {("RPL305", "replayctl/config.py", 15)},
    "typer_serverconfig_dataclass_rendered_to_flags_trace_replay_default_off_clean": set(),
    # 6. lossy speculative verification
    "serve_speculative_config_cat_json_file_synthetic": {("RPL306", "configs/spec.json", 6)},
    "serve_speculative_config_cat_json_file_block_verification_clean": set(),
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
