"""Seventeenth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout17/ is a small tree written the way users start replay servers and send
requests, imitating public docs and code read for this round (vLLM's "Using Docker" with an image whose CMD runs an
entrypoint script of `${VAR:-default}`s, vLLM's "Serve with a config file" behind a Makefile's `docker run
--env-file`, Kubernetes' StatefulSet and Init Containers docs, requests' Session objects, httpx's event hooks
and `base_url`, the OpenAI SDK's `with_raw_response` and streaming, vLLM's offline inference and speculative
decoding docs), in spellings the earlier rounds' folder names do not show: the mask in a script a Dockerfile's
CMD runs, without scale-out (and with it); an OpenAI client from a cached factory whose base URL comes from an
INI file, streaming chat through `with_raw_response` (and the same client at another host); a presence penalty
in the `override-generation-config` mapping of a `--config` YAML (and 0.0); a repetition penalty copied from a
`generation_config.json` of the tree into an `/inference/v1/generate` body sent by a `requests.Session` subclass
(and a file without one); a thinking budget merged with `{**a, **b}` from another module into an
`httpx.AsyncClient` body (and a budget sent only to a non-replay judge server); a top_k equal to the checkpoint's
`vocab_size` merged with `dict(**base, **extra)` (and 64); trace replay in a config file an init container writes
with a heredoc (and without it); synthetic verification as the default of one of several env vars a Python
launcher builds the speculative config from (and `standard`). Each `README` says what it imitates and which
vLLM 0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public docs cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): every engine starts (the servers with `--reasoning-parser
qwen3` judged without it, for which the stand-in model has no tokenizer; the StatefulSet's config as the file its
heredoc writes; the synthetic verification with its `synthetic_acceptance_length`). A finding that rests on a
value written elsewhere is expected at that value's line (a JSON key of generation_config.json, a dict entry of
another module, an `os.environ.get` default, a key of a YAML config), a client's finding at its call, a launch's
finding at the word that decides it.

First run (the lead, on the integration branch merge-s42 at d4b2b79, after round 16's fixes): 12 of 16 cases as
expected (75%); of 8 expected findings 4 exact, 4 missed (PENDING); no false finding; 8 of 8 clean cases clean.
After the round's fixes (tests/test_rpl3_round17_launches.py): 16 of 16 as expected; no expectation changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout17"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "dockerfile_cmd_entrypoint_script_env_defaults_mask_without_scale_out": {("RPL301", "docker/entrypoint.sh", 16)},
    "dockerfile_cmd_entrypoint_script_env_defaults_mask_with_scale_out_clean": set(),
    "openai_factory_ini_base_url_with_raw_response_stream_chat": {("RPL301", "agent/rollout.py", 6)},
    "openai_factory_ini_base_url_other_host_with_raw_response_clean": set(),
    # 2. requests that shift the distribution
    "makefile_docker_run_env_file_config_yaml_override_generation_presence": {("RPL302", "config/replay.yaml", 13)},
    "makefile_docker_run_env_file_config_yaml_neutral_presence_clean": set(),
    "session_subclass_generate_body_from_generation_config_json_repetition": {("RPL302", "assets/generation_config.json", 9)},
    "session_subclass_generate_body_from_generation_config_json_clean": set(),
    # 3. thinking budget
    "httpx_async_event_hooks_generate_thinking_budget_merged_presets": {("RPL303", "rollout/presets.py", 9)},
    "httpx_async_event_hooks_thinking_budget_to_non_replay_judge_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "offline_llm_dict_splat_two_modules_top_k_checkpoint_vocab": {("RPL304", "rollout/exploration.py", 4)},
    "offline_llm_dict_splat_two_modules_top_k_below_vocab_clean": set(),
    # 5. trace replay
    "statefulset_init_container_writes_config_trace_replay": {("RPL305", "k8s/statefulset.yaml", 31)},
    "statefulset_init_container_writes_config_no_trace_replay_clean": set(),
    # 6. lossy speculative verification
    "python_launcher_speculative_config_from_env_defaults_synthetic": {("RPL306", "launch_policy.py", 13)},
    "python_launcher_speculative_config_from_env_defaults_standard_clean": set(),
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
