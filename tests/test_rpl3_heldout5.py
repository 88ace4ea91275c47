"""Fifth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout5/ is a small tree written the way users write launches
and clients, in spellings the first four rounds' folder names do not name: Ray Serve LLM
(`LLMConfig(engine_kwargs=...)` + `build_openai_app`, which serves only OpenAI routes), systemd
units (`ExecStart=` on one line and over `\\` continuations), `Procfile`s, a GitHub Actions
`run: |` step, SLURM `sbatch` scripts with `srun vllm serve`, a Helm chart whose template passes
`values.yaml`'s `extraArgs` with `range`, `tox.ini` and `noxfile.py` sessions, LiteLLM's
`acompletion` and a judge on another host, LangChain's `ChatOpenAI(extra_body=..., model_kwargs=...)`,
an aiohttp URL built by an f-string, `asyncio.gather` of aiohttp posts, `httpx.stream("POST", ...)`
derender with the reasoning hidden and a `parse_context` without `include_reasoning`,
`repetition_penalty` 1.05 vs 1.0 in a generate body, neutral penalties and `logit_bias={}` on
`AsyncLLM.from_engine_args`, a negative EOS `logit_bias`, `thinking_token_budget` in a generate
body, set as an attribute, and -1 through a constant, `top_k` equal to / below a local LLaVA
checkpoint's `text_config.vocab_size`, a dotted `--override-generation-config.top_k`, lossy
speculative verification in a `--config` YAML JSON string and dotted flags, and the preview rules
on a server-wide tiny temperature and a local `generation_config.json` holding only token ids.
Its `README` says what it imitates and which vLLM line decides.

Blindness: the cases were written from the issue, the rule pages (docs/rules/), vLLM 0.34.0's
source and vLLM's own verdict (tests/differential/vllm_judge.py on each launch), without reading
replaylint's implementation, the earlier rounds' case files (only their folder names) or the
README/CHANGELOG sections on what is followed, and committed before replaylint was run on them.
`EXPECTED` is the whole answer for each case: every finding replaylint must report (code, file,
line), and nothing else; a case with none is clean. The preview rules (RPL307-RPL309) are
selected for the `preview_*` cases.

First run, before any fix (the commit that added this module's figures): 26 of 34 cases as
expected, 13 of 13 clean cases clean; of 23 expected findings 15 exact, 0 at another line, 8
missed, 0 false. Missed: RPL301 of a systemd unit's one-line `ExecStart=`
(`systemd_unit_execstart_no_scale_out`), RPL305 of `--enable-trace-replay` in a continued
`ExecStart=` (`systemd_continuation_trace_replay`), RPL301 of a `Procfile` `web:` process
(`procfile_web_no_scale_out`), RPL306 of dotted `--speculative-config.rejection_sample_method fly`
in a `Procfile` (`procfile_speculative_dotted_fly`), RPL301 of `srun ... vllm serve` in a
`.sbatch` script (`sbatch_srun_serve_no_scale_out`), RPL301 of a Helm `values.yaml` item passed by
the template's `range` (`helm_template_range_extra_args`), RPL301 of Ray Serve LLM's
`engine_kwargs` served by `build_openai_app` (`ray_serve_llm_config_openai_app`), and RPL304 of a
dotted `--override-generation-config.top_k 300000` in `tox.ini` `commands`
(`tox_override_generation_config_top_k_huge`). Every expected finding in a Python, shell, `--config`
YAML, workflow or `noxfile` spelling was found at its line; the eight misses are all launches in
a systemd unit, `Procfile`, `.sbatch` script, Helm template, Ray Serve LLM config or `tox.ini`,
presumably not read as launches (not checked: the implementation was not read).

After the fixes (no case changed): 34 of 34 cases as expected, 13 of 13 clean cases clean; of 23
expected findings 23 exact, 0 false. The eight misses were files not read as launches, as
presumed: systemd units, `Procfile`s and `tox.ini` are now read as command lines, `*.sbatch` as
shell, a chart's own `range` template and Ray Serve LLM's `build_openai_app` as launches.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout5"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "ray_serve_llm_config_openai_app": {("RPL301", "serve_app.py", 9)},
    "systemd_unit_execstart_no_scale_out": {("RPL301", "deploy/vllm-policy.service", 8)},
    "procfile_web_no_scale_out": {("RPL301", "Procfile", 1)},
    "gha_run_step_nohup_serve_chat": {("RPL301", ".github/workflows/rollout-smoke.yml", 11), ("RPL301", "smoke.py", 5)},
    "sbatch_srun_serve_no_scale_out": {("RPL301", "slurm/rollout.sbatch", 12)},
    "helm_template_range_extra_args": {("RPL301", "chart/values.yaml", 6)},
    "litellm_acompletion_hosted_vllm_chat": {("RPL301", "agent.py", 9)},
    "aiohttp_fstring_url_completions": {("RPL301", "sampler.py", 9)},
    "langchain_chatopenai_extra_body_model_kwargs": {("RPL301", "agent.py", 4)},
    "httpx_stream_derender_reasoning_hidden": {("RPL301", "client.py", 9)},
    "systemd_unit_tokens_only_clean": set(),
    "sbatch_srun_scale_out_generate_clean": set(),
    "ray_serve_llm_without_mask_clean": set(),
    "derender_parse_context_without_include_reasoning_clean": set(),
    "litellm_remote_judge_host_clean": set(),
    "noxfile_session_scale_out_neutral_override_clean": set(),
    # 2. requests that shift the distribution
    "generate_body_repetition_penalty_one_oh_five": {("RPL302", "rollout.py", 9)},
    "offline_logit_bias_suppress_eos": {("RPL302", "collect.py", 11)},
    "aiohttp_gather_generate_frequency_penalty": {("RPL302", "collect.py", 9)},
    "generate_body_repetition_penalty_one_clean": set(),
    "asyncllm_engine_args_presence_zero_empty_bias_clean": set(),
    # 3. thinking budget
    "httpx_async_generate_thinking_budget": {("RPL303", "think.py", 11)},
    "offline_sampling_params_attribute_thinking_budget": {("RPL303", "rollout.py", 10)},
    "offline_thinking_budget_minus_one_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "llava_text_config_top_k_equals_vocab": {("RPL304", "caption.py", 6)},
    "tox_override_generation_config_top_k_huge": {("RPL304", "tox.ini", 9)},
    "llava_text_config_top_k_below_vocab_clean": set(),
    # 5. trace replay
    "systemd_continuation_trace_replay": {("RPL305", "vllm-replay.service", 9)},
    "helm_trace_replay_no_mask_clean": set(),
    # 6. lossy speculative verification
    "serve_config_yaml_json_string_synthetic": {("RPL306", "configs/serve.yaml", 5)},
    "procfile_speculative_dotted_fly": {("RPL306", "Procfile", 1)},
    "systemd_ngram_spec_default_verification_clean": set(),
    # 7. preview
    "preview_override_generation_config_temperature_tiny": {("RPL307", "serve.sh", 1), ("RPL309", "serve.sh", 1)},
    "preview_local_generation_config_eos_only_clean": set(),
}


def test_every_folder_is_a_case_and_a_third_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED, 34)


def test_every_case_says_what_it_imitates() -> None:
    assert_each_readme_says_what_it_imitates(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_case_findings(case: str) -> None:
    assert_case_findings(CORPUS, EXPECTED, case)
