"""Precision of what round 4 of the held-out forks taught the fork readers (tests/test_forks_heldout4.py):
each test takes a round-4 tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does, or reaches it another way: the finding then goes (or stays, or moves) as vLLM
would have it."""

from __future__ import annotations

from pathlib import Path

from forks_trees import materialize
from test_forks_heldout4 import CORPUS, NEMO_RECIPE, OI_UTILS, OPENRLHF_ENGINE, SKYRL_CONFIG, VERL_LAUNCH, VERL_SERVER
from test_forks_round2_readers import edit, findings

NEMO_WORKER = "nemo_rl/models/generation/vllm/vllm_worker.py"


def tree(case: str, tmp_path: Path) -> Path:
    root = materialize(CORPUS / case, tmp_path / case)
    (root / ".git").mkdir()
    return root


def test_a_nested_speculative_key_is_reported_once_at_its_own_line(tmp_path: Path) -> None:
    root = tree("openrlhf_speculative_nested_dict_adaptive_verification", tmp_path)
    assert findings(root) == {("RPL002", OPENRLHF_ENGINE, 288)}
    edit(root / OPENRLHF_ENGINE, '"enable_adaptive_verification": True,', '"enable_adaptive_verification": False,')
    assert findings(root) == set()


def test_a_default_factory_field_is_the_engines_unless_the_launch_writes_the_key(tmp_path: Path) -> None:
    root = tree("skyrl_speculative_default_adaptive_verification", tmp_path)
    assert findings(root) == {("RPL002", SKYRL_CONFIG, 1199)}
    launch = root / "examples/train/gsm8k/run_gsm8k_replay.sh"
    text = launch.read_text()
    marker = "  generator.sampling_params.top_k=20 \\\n"
    assert marker in text
    launch.write_text(text.replace(marker, marker + "  generator.inference_engine.speculative_config=null \\\n"))
    assert findings(root) == set()


def test_the_workers_zero_token_drop_is_decided_by_the_recipes_tokens(tmp_path: Path) -> None:
    root = tree("nemo_recipe_speculative_zero_tokens_dropped_clean", tmp_path)
    assert findings(root) == set()
    edit(root / NEMO_RECIPE, "num_speculative_tokens: 0\n        prompt", "num_speculative_tokens: 3\n        prompt")
    assert findings(root) == {("RPL002", NEMO_RECIPE, 441)}


def test_a_drop_whose_test_the_reader_cannot_decide_is_not_applied(tmp_path: Path) -> None:
    root = tree("nemo_recipe_speculative_zero_tokens_dropped_clean", tmp_path)
    edit(root / NEMO_WORKER, 'speculative_config.get("num_speculative_tokens") == 0', "_drafts_disabled(speculative_config)")
    assert findings(root) == {("RPL002", NEMO_RECIPE, 441)}


def test_a_keyword_of_the_engine_call_is_over_the_dict(tmp_path: Path) -> None:
    root = tree("nemo_create_engine_call_mask_top_k_null", tmp_path)
    assert findings(root) == {("RPL102", NEMO_RECIPE, 373)}
    edit(root / NEMO_WORKER, "vllm.LLM(**llm_kwargs, return_sampling_mask=True)", "vllm.LLM(**llm_kwargs, return_sampling_mask=False)")
    assert findings(root) == set()


def test_a_parameter_default_no_caller_passes_is_the_engines(tmp_path: Path) -> None:
    root = tree("openrlhf_parameter_default_mask_no_correction", tmp_path)
    assert findings(root) == {("RPL003", OPENRLHF_ENGINE, 227)}
    edit(root / OPENRLHF_ENGINE, "return_sampling_mask: bool = True,", "return_sampling_mask: bool = False,")
    assert findings(root) == set()


def test_without_the_caller_in_the_tree_no_parameter_is_taken_at_its_default(tmp_path: Path) -> None:
    root = tree("openrlhf_parameter_default_mask_no_correction", tmp_path)
    (root / "openrlhf/cli/train_ppo_ray.py").unlink()
    assert findings(root) == set()


def test_a_parameter_the_trees_caller_names_is_not_taken_at_its_default(tmp_path: Path) -> None:
    root = tree("openrlhf_parameter_default_mask_no_correction", tmp_path)
    caller = root / "openrlhf/cli/train_ppo_ray.py"
    caller.parent.mkdir(parents=True, exist_ok=True)
    caller.write_text("vllm_engines = create_vllm_engines(return_sampling_mask=args.replay)\n")
    assert ("RPL003", OPENRLHF_ENGINE, 227) not in findings(root)


def test_an_actor_subclass_counts_only_when_it_is_the_class_started(tmp_path: Path) -> None:
    root = tree("oi_actor_subclass_mask_no_top_k", tmp_path)
    assert findings(root) == {("RPL102", OI_UTILS, 1017)}
    edit(root / OI_UTILS, "ray.remote(ReplayLLMRayActor)", "ray.remote(LLMRayActor)")
    assert findings(root) == set()


def test_an_actor_subclass_write_after_its_parent_built_the_engine_does_not_reach_it(tmp_path: Path) -> None:
    root = tree("oi_actor_subclass_mask_no_top_k", tmp_path)
    edit(
        root / OI_UTILS,
        '        kwargs["return_sampling_mask"] = True\n        super()._setup_and_start_async_engine(args, bundle_indices, kwargs)\n',
        '        super()._setup_and_start_async_engine(args, bundle_indices, kwargs)\n        kwargs["return_sampling_mask"] = True\n',
    )
    assert findings(root) == set()


def test_a_name_the_engine_was_built_under_means_nothing_in_another_method(tmp_path: Path) -> None:
    root = tree("oi_actor_subclass_mask_no_top_k", tmp_path)
    edit(
        root / OI_UTILS,
        "    def _init_openai_client(self) -> None:\n",
        '    def _init_openai_client(self) -> None:\n        engine_args = self.client_options\n        engine_args.logprobs_mode = "raw_logprobs"\n',
    )
    assert findings(root) == {("RPL102", OI_UTILS, 1017 + 2)}  # two lines written above it


def test_a_hook_is_read_on_the_server_class_the_replica_starts(tmp_path: Path) -> None:
    root = tree("verl_server_subclass_hook_mask_default_requests", tmp_path)
    assert findings(root) == {("RPL101", VERL_SERVER, 694), ("RPL102", VERL_SERVER, 694)}
    edit(root / VERL_SERVER, "self.server_class = ray.remote(ReplayvLLMHttpServer)", "self.server_class = ray.remote(vLLMHttpServer)")
    assert findings(root) == set()  # the base class's hook returns {}


def test_a_hook_whose_value_is_not_read_here_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree("verl_server_subclass_hook_mask_default_requests", tmp_path)
    edit(root / VERL_SERVER, 'return {"return_sampling_mask": True}', 'return {"return_sampling_mask": self.config.replay}')
    assert findings(root) == set()


def test_runtime_env_vars_under_an_if_are_not_the_engines(tmp_path: Path) -> None:
    root = tree("verl_replica_runtime_env_runner_v1", tmp_path)
    assert findings(root) == {("RPL206", VERL_SERVER, 760)}
    text = (root / VERL_SERVER).read_text()
    start = text.index("            server = self.server_class.options(")
    end = text.index("            self.servers.append(server)")
    block = "".join("    " + line if line else line for line in text[start:end].splitlines(keepends=True))
    (root / VERL_SERVER).write_text(text[:start] + "            if self.config.get('legacy_runner'):\n" + block + text[end:])
    assert findings(root) == set()


def test_a_clamp_in_generate_bounds_the_requests_its_test_selects(tmp_path: Path) -> None:
    root = tree("verl_generate_clamps_request_clean", tmp_path)
    assert findings(root) == set()
    edit(root / VERL_SERVER, 'if sampling_params.get("top_k", -1) <= 0:', 'if sampling_params.get("top_k", -1) < -1:')
    assert findings(root) == {("RPL102", VERL_LAUNCH, 23)}  # top_k -1 passes the test untouched; temperature is still clamped


def test_a_clamp_under_a_test_not_read_here_leaves_the_request_open(tmp_path: Path) -> None:
    root = tree("verl_generate_clamps_request_clean", tmp_path)
    edit(root / VERL_SERVER, 'if sampling_params.get("top_k", -1) <= 0:', 'if self.config.get("clamp_top_k"):')
    assert findings(root) == set()  # top_k unknown; temperature still clamped


def test_a_parameter_default_keeps_the_dicts_own_key_and_condition(tmp_path: Path) -> None:
    root = tree("openrlhf_parameter_default_mask_no_correction", tmp_path)
    edit(root / OPENRLHF_ENGINE, "return_sampling_mask: bool = True,", "replay: bool = True,")
    edit(root / OPENRLHF_ENGINE, '"return_sampling_mask": return_sampling_mask,', '"return_sampling_mask": replay,')
    assert findings(root) == {("RPL003", OPENRLHF_ENGINE, 227)}
    text = (root / OPENRLHF_ENGINE).read_text()
    edit(root / OPENRLHF_ENGINE, '            "return_sampling_mask": replay,\n', "")
    marker = "        actor_kwargs.update(\n"
    assert text.count(marker) == 1
    (root / OPENRLHF_ENGINE).write_text(
        (root / OPENRLHF_ENGINE)
        .read_text()
        .replace(marker, '        if num_engines > 1:\n            actor_kwargs["return_sampling_mask"] = replay\n' + marker)
    )
    assert findings(root) == set()  # under the fork's own `if`: the launch is open
