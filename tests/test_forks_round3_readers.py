"""Precision of what round 3 of the held-out forks taught the fork readers (tests/test_forks_heldout3.py):
each test takes a round-3 tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does not: the finding then goes (or stays) as vLLM would have it."""

from __future__ import annotations

from pathlib import Path

from forks_trees import materialize
from test_forks_named_alone import hook
from test_forks_round2_readers import edit, findings

CORPUS = Path(__file__).parent / "data" / "forks_heldout3"
VERL_SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
SKYRL_UTILS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
OPENRLHF_ENGINES = "openrlhf/trainer/ray/vllm_engine.py"


def tree(case: str, tmp_path: Path) -> Path:
    root = materialize(CORPUS / case, tmp_path / case)
    (root / ".git").mkdir()
    return root


def codes(root: Path) -> set[str]:
    return {code for code, _, _ in findings(root)}


def test_a_write_under_the_forks_flag_stands_only_when_the_launch_turns_it_on(tmp_path: Path) -> None:
    root = tree("verl_flag_setdefault_mask_default_requests", tmp_path)
    assert codes(root) == {"RPL101", "RPL102"}
    edit(root / "examples/grpo/run_qwen3b.sh", " +actor_rollout_ref.rollout.sampling_replay=True", "")
    assert findings(root) == set()  # the code's default, False: no mask


def test_a_flag_whose_value_is_not_known_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree("verl_flag_setdefault_mask_default_requests", tmp_path)
    edit(root / VERL_SERVER, 'self.config.get("sampling_replay", False)', 'self.config.get("sampling_replay")')
    edit(
        root / "examples/grpo/run_qwen3b.sh",
        "+actor_rollout_ref.rollout.sampling_replay=True",
        "+actor_rollout_ref.rollout.sampling_replay=$REPLAY",
    )
    assert findings(root) == set()


def test_a_skyrl_flag_field_left_at_its_default_sets_nothing(tmp_path: Path) -> None:
    root = tree("skyrl_flag_conditional_mask_eval_greedy", tmp_path)
    assert codes(root) == {"RPL101", "RPL102"}
    edit(root / "examples/train/gsm8k/run_gsm8k_replay.sh", "  generator.inference_engine.enable_sampling_replay=true \\\n", "")
    assert findings(root) == set()


def test_a_skyrl_flag_field_defaulting_to_true_sets_the_mask(tmp_path: Path) -> None:
    root = tree("skyrl_flag_conditional_mask_eval_greedy", tmp_path)
    edit(root / "skyrl/train/config/config.py", "enable_sampling_replay: bool = False", "enable_sampling_replay: bool = True")
    edit(root / "examples/train/gsm8k/run_gsm8k_replay.sh", "  generator.inference_engine.enable_sampling_replay=true \\\n", "")
    assert codes(root) == {"RPL101", "RPL102"}


def test_a_helper_that_takes_arguments_is_not_read(tmp_path: Path) -> None:
    root = tree("skyrl_helper_returns_engine_kwargs_default_requests", tmp_path)
    edit(root / SKYRL_UTILS, "def replay_engine_kwargs() -> dict:", "def replay_engine_kwargs(mode) -> dict:")
    edit(root / SKYRL_UTILS, "replay_engine_kwargs().items()", "replay_engine_kwargs(cfg).items()")
    assert findings(root) == set()  # what it returns may depend on them: open


def test_a_constant_bound_twice_is_not_read(tmp_path: Path) -> None:
    root = tree("openrlhf_module_constant_mask_top_k_default", tmp_path)
    assert codes(root) == {"RPL102"}
    edit(
        root / OPENRLHF_ENGINES,
        'REPLAY_ENGINE_KWARGS = {"return_sampling_mask": True}\n',
        'REPLAY_ENGINE_KWARGS = {"return_sampling_mask": True}\nif os.environ.get("NO_REPLAY"):\n    REPLAY_ENGINE_KWARGS = {}\n',
    )
    assert findings(root) == set()


def test_an_openrlhf_fork_whose_command_line_passes_top_k_leaves_the_request_open(tmp_path: Path) -> None:
    root = tree("openrlhf_module_constant_mask_top_k_default", tmp_path)
    (root / "openrlhf/cli").mkdir(parents=True)
    (root / "openrlhf/cli/train_ppo_ray.py").write_text("generate_kwargs = dict(top_k=args.rollout.top_k)\n")
    assert findings(root) == set()


def test_an_engine_args_attribute_under_a_condition_keeps_the_mask_unknown(tmp_path: Path) -> None:
    root = tree("oi_engine_args_attribute_mask_no_top_k", tmp_path)
    assert codes(root) == {"RPL102"}
    edit(
        root / "open_instruct/vllm_utils.py",
        "        engine_args.return_sampling_mask = True  # fork: replay\n",
        '        if os.environ.get("REPLAY"):\n            engine_args.return_sampling_mask = True\n',
    )
    assert findings(root) == set()


def test_openrlhf_request_builder_named_alone_is_judged_with_the_launch_that_reads_it(tmp_path: Path) -> None:
    """Pre-commit hands over only samples_generator.py: the fork's own `top_k` default of 0 there
    is judged with the launch of the tree (the mask in vllm_engine.py) and reported on its line."""
    root = tree("openrlhf_sampling_builder_top_k_clean", tmp_path)
    samples = "openrlhf/trainer/ppo_utils/samples_generator.py"
    assert hook(root, samples) == (0, [])
    edit(root / samples, 'top_k=generate_kwargs.get("top_k", 64)', 'top_k=generate_kwargs.get("top_k", 0)')
    assert hook(root, samples) == (1, [("RPL102", samples, 206)])
