"""Framework adapters: prime-rl (TOML), NeMo-RL and verl (YAML, overrides), TRL, SkyRL, SageMaker, Dynamo."""

from __future__ import annotations

import pytest

from replaylint import frontends
from replaylint.frameworks import sagemaker
from replaylint.frameworks.views import read_hydra_overrides
from replaylint.frontends import ExtractContext, SourceFile, shell, toml
from replaylint.model import UNKNOWN, Launch, LaunchKind, Setting, Span
from replaylint.programs import split_launcher


def codes(check, files: dict[str, str], name: str, release: str | None = None) -> list[str]:
    return [finding.code for finding in check(files, release=release)[name].findings]


def toml_launches(text: str, path: str = "rl.toml") -> list[Launch]:
    return toml.extract(SourceFile(path, text), ExtractContext())


def shell_launch(text: str, files: dict[str, str] | None = None) -> Launch:
    found = shell.extract(SourceFile("run.sh", text), ExtractContext(read_text=(files or {}).get))
    assert len(found) == 1, found
    return found[0]


RL = """\
[model]
name = "Qwen/Qwen3-8B"

[orchestrator.train.sampling]
temperature = 1.0
{sampling}

[trainer.optim]
lr = 1e-6

[inference]
{inference}

[inference.vllm]
max_model_len = 4096
{vllm}
"""


def rl(sampling: str = "", inference: str = "", vllm: str = "") -> str:
    return RL.format(sampling=sampling, inference=inference, vllm=vllm)


# -- file kinds and the prefilter ---------------------------------------------------------------


def test_toml_kind_but_not_pyproject() -> None:
    assert frontends.kind_for("configs/rl.toml") == "toml"
    assert frontends.kind_for("inference.TOML") == "toml"
    assert frontends.kind_for("pyproject.toml") is None


def test_prefilter_catches_implicit_masks_cheaply() -> None:
    assert frontends.relevant("toml", rl(sampling="top_p = 0.9").encode())
    assert frontends.relevant("toml", b"enable_return_sampling_mask = true\n")
    assert not frontends.relevant("toml", b"[tool.black]\nline-length = 100\n")
    assert not frontends.relevant("toml", b"[orchestrator]\nbatch_size = 1\n")


# -- the TOML scanner ------------------------------------------------------------------------------


def test_toml_spans_of_tables_dotted_keys_inline_tables_and_arrays_of_tables() -> None:
    text = (
        'title = """a\n""\\"b"""  # comment\n'
        "[a.b]\n"
        "list = [\n  1, # one\n  2,\n]\n"
        "env.id = 'x'\n"
        "[[a.src]]\n"
        'name = "first"\n'
        "[[a.src]]\n"
        "sampling = { top_k = 64, nested = { x = 1 } }\n"
        "[a.src.extra]\n"
        "y = 2\n"
    )
    document = toml.read(SourceFile("f.toml", text))

    def at(*path: object) -> str:
        span = document.span(*path)
        assert span is not None, path
        return text[span.start : span.end]

    assert at("title") == 'title = """a\n""\\"b"""'
    assert at("a", "b", "list") == "list = [\n  1, # one\n  2,\n]"
    assert at("a", "b", "env", "id") == "env.id = 'x'"
    assert at("a", "src", 0, "name") == 'name = "first"'
    assert at("a", "src", 1, "sampling", "top_k") == "top_k = 64"
    assert at("a", "src", 1, "sampling", "nested", "x") == "x = 1"
    assert at("a", "src", 1, "extra", "y") == "y = 2"
    assert document.value("a", "src", 1, "sampling", "top_k") == 64


def test_unparsable_toml_is_reported_only_for_prime_rl_shapes() -> None:
    assert toml_launches("[tool\nx = 1\n", "other.toml") == []
    with pytest.raises(frontends.ParseError):
        toml_launches("[inference\nenable_return_sampling_mask = true\n")


# -- prime-rl ------------------------------------------------------------------------------------


def test_prime_rl_implicit_mask_from_group_top_p_or_source_top_k() -> None:
    (launch,) = toml_launches(rl(sampling="top_p = 0.95"))
    mask = launch.get("return_sampling_mask")
    assert mask is not None and mask.value is True and mask.spelling.startswith("top_p = 0.95")
    assert launch.value("logprobs_mode") == "processed_logprobs"
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value == "1"
    sources = rl() + '\n[[orchestrator.train.source]]\nname = "a"\n\n[[orchestrator.train.source]]\nname = "b"\nsampling = { top_k = 8 }\n'
    (launch,) = toml_launches(sources)
    assert launch.value("return_sampling_mask") is True


def test_prime_rl_no_truncation_no_mask_and_explicit_false_is_overridden() -> None:
    (launch,) = toml_launches(rl(sampling="top_p = 1.0"))
    assert launch.get("return_sampling_mask") is None and "VLLM_USE_V2_MODEL_RUNNER" not in launch.env
    (launch,) = toml_launches(rl(sampling="top_k = 20", inference="enable_return_sampling_mask = false"))
    assert launch.value("return_sampling_mask") is True


def test_prime_rl_custom_algorithm_source_makes_the_mask_unknown() -> None:
    text = rl() + '\n[[orchestrator.train.source]]\nname = "a"\nalgo = { type = "my-plugin" }\nsampling = { top_p = 0.5 }\n'
    (launch,) = toml_launches(text)
    assert launch.value("return_sampling_mask") is UNKNOWN


def test_prime_rl_without_inference_table_starts_no_server() -> None:
    assert toml_launches("[orchestrator.train.sampling]\ntop_p = 0.9\n[trainer]\nx = 1\n") == []


def test_prime_rl_user_values_win_over_defaults(check) -> None:
    text = rl(sampling="top_k = 50", vllm='logprobs-mode = "raw_logprobs"') + '\n[inference.env_vars]\nVLLM_USE_V2_MODEL_RUNNER = "0"\n'
    (launch,) = toml_launches(text)
    assert launch.value("logprobs_mode") == "raw_logprobs"
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert codes(check, {"rl.toml": text}, "rl.toml", "0.33.0") == ["RPL003", "RPL004"]
    assert codes(check, {"rl.toml": text}, "rl.toml", "0.34.0") == ["RPL003", "RPL206"]


def test_pyproject_is_never_a_prime_rl_config(check) -> None:
    text = "[orchestrator]\nx = 1\n[inference]\nenable_return_sampling_mask = true\n[inference.vllm]\nlogprobs_mode = 'raw_logprobs'\n"
    assert codes(check, {"pyproject.toml": text}, "pyproject.toml") == []
    assert codes(check, {"rl.toml": text}, "rl.toml") == ["RPL003"]


# -- launchers and overrides -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["trl", "vllm-serve", "--model", "m"], ("trl", 2)),
        (["python3", "-u", "-m", "verl.trainer.main_ppo", "a=b"], ("verl", 4)),
        (["uv", "run", "--isolated", "--extra", "vllm", "python", "-m", "skyrl.train.entrypoints.main_base"], ("skyrl", 8)),
        (["uv", "run", "python", "examples/run_grpo_math.py", "policy.generation.top_k=5"], ("nemo-rl", 3)),
        (["python", "examples/run_grpo_math.py", "--config", "c.yaml"], ("nemo-rl", 1)),
        (["python", "run_eval.py", "x=1"], ("nemo-rl", 1)),  # NeMo-RL's script: its default config decides
        (["python", "run_evaluation.py", "x=1"], None),
        (["trl", "sft", "--model", "m"], None),
        (["python", "-m", "verl.trainer.main_generation"], ("trl-script", 2)),  # a module of the user's, read as a program
        (["python", "-m", "skyrl.train.entrypoints.serve", "trainer.placement.colocate_all=false"], ("skyrl-module", 2)),
        (["python", "-m", "skyrl.train.entrypoints.serve"], ("skyrl-module", 2)),  # its overrides may all be forwarded
        (["python3", "-m", "openrlhf.cli.train_ppo_ray", "--vllm_num_engines", "4"], ("openrlhf", 3)),
        # OpenRLHF's and verl's READMEs: the entrypoint Ray runs follows `--`
        (["ray", "job", "submit", "--address=http://127.0.0.1:8265", "--", "python3", "-m", "openrlhf.cli.train_ppo_ray"], ("openrlhf", 8)),
        (["ray", "job", "submit", "--no-wait", "--", "python3", "-m", "verl.trainer.main_ppo", "a=b"], ("verl", 8)),
        (["ray", "job", "submit", "python3", "-m", "verl.trainer.main_ppo"], None),  # where its options end is not known
    ],
)
def test_framework_launchers(words: list[str], expected: object) -> None:
    assert split_launcher(words) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("True", True),
        ("false", False),
        ("'True'", "True"),
        ('"0"', "0"),
        ("null", None),
        ("12", 12),
        ("0.5", 0.5),
        (".5", 0.5),
        ("1.", 1.0),
        ("1_000.5", 1000.5),
        ("-2e3", -2000.0),
        ("inf", float("inf")),
        ("1.2.3", "1.2.3"),
        ("1e", "1e"),
        ("[1, 2]", [1, 2]),
        ("abc", "abc"),
    ],
)
def test_hydra_values(text: str, expected: object) -> None:
    assert hydra_value(text) == expected


def hydra_value(text: str) -> object:
    from replaylint.vllm.command_line import Token

    span = Span("run.sh", 1, 1, 1, 1, 0, 0)
    return read_hydra_overrides([Token(f"k={text}", span, f"k={text}")]).value("k")


def test_hydra_interpolation_is_unknown() -> None:
    assert hydra_value("${oc.env:X}") is UNKNOWN


# -- verl ----------------------------------------------------------------------------------------

VERL = (
    "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name={name} actor_rollout_ref.rollout.top_k=50 \\\n"
    "  actor_rollout_ref.rollout.val_kwargs.temperature=1 actor_rollout_ref.rollout.val_kwargs.top_k=5 \\\n"
    "  +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True {extra}\n"
)


def test_verl_defaults_and_engine_kwargs_win() -> None:
    launch = shell_launch(VERL.format(name="vllm", extra="actor_rollout_ref.rollout.tensor_model_parallel_size=1"))
    assert launch.kind is LaunchKind.FRAMEWORK
    assert launch.value("logprobs_mode") == "processed_logprobs"
    assert launch.value("tensor_parallel_size") == 1
    assert launch.value("compilation_config") == {"cudagraph_mode": "FULL_AND_PIECEWISE"}
    launch = shell_launch(VERL.format(name="vllm", extra="+actor_rollout_ref.rollout.engine_kwargs.vllm.logprobs_mode=raw_logprobs"))
    assert launch.value("logprobs_mode") == "raw_logprobs"


def test_verl_null_logprobs_mode_leaves_vllms_default(check) -> None:
    text = VERL.format(name="vllm", extra="actor_rollout_ref.rollout.logprobs_mode=null")
    assert shell_launch(text).get("logprobs_mode") is None
    assert codes(check, {"run.sh": text}, "run.sh") == ["RPL003"]


def test_verl_other_engines_are_not_vllm() -> None:
    assert shell.extract(SourceFile("run.sh", VERL.format(name="sglang", extra="")), ExtractContext()) == []


# -- NeMo-RL -------------------------------------------------------------------------------------


def test_nemo_rl_logprobs_mode_unknown_unless_written_and_typed_keys() -> None:
    text = (
        "uv run python examples/run_grpo_math.py ++policy.generation.vllm_kwargs.return_sampling_mask=true \\\n"
        "  policy.generation.vllm_cfg.tensor_parallel_size=4 policy.generation.vllm_cfg.expert_parallel_size=2\n"
    )
    launch = shell_launch(text)
    assert launch.value("logprobs_mode") is UNKNOWN
    assert launch.value("tensor_parallel_size") == 4 and launch.value("enable_expert_parallel") is True
    launch = shell_launch(text.rstrip("\n") + " policy.generation.vllm_cfg.logprobs_mode=raw_logprobs\n")
    # NeMo-RL 0.7.0 does not read vllm_cfg.logprobs_mode (it hard-codes processed_logprobs): unknown until a pin says.
    assert launch.value("logprobs_mode") is UNKNOWN
    assert launch.framework.editions["main"].value("logprobs_mode") == "raw_logprobs"
    assert launch.framework.editions["0.7.0"].value("logprobs_mode") == "processed_logprobs"


def test_nemo_rl_replay_switch_sets_all_three(check) -> None:
    text = (
        "policy:\n  sampling_mask_replay:\n    enabled: true\n  generation:\n    temperature: 1.0\n    top_k: 20\n"
        "    vllm_cfg:\n      logprobs_mode: raw_logprobs\n      env_vars:\n        VLLM_USE_V2_MODEL_RUNNER: '0'\n"
    )
    assert codes(check, {"grpo.yaml": text}, "grpo.yaml") == []


def test_nemo_rl_other_backend_is_not_vllm(check) -> None:
    text = "policy:\n  generation:\n    backend: megatron\n    vllm_kwargs:\n      return_sampling_mask: true\n"
    assert codes(check, {"grpo.yaml": text}, "grpo.yaml") == []


# -- TRL -----------------------------------------------------------------------------------------


def test_trl_translates_its_own_flags_and_forwards_the_rest() -> None:
    launch = shell_launch(
        "trl vllm-serve --model m --tensor 2 --enable-prefix-caching false --vllm-model-impl transformers --return-sampling-mask\n"
    )
    assert launch.framework is not None and launch.framework.edition == ""  # no pin: the editions disagree
    assert launch.get("return_sampling_mask") is not None and launch.value("return_sampling_mask") is UNKNOWN
    forwards = launch.framework.editions["1.16.0"]
    assert forwards.value("model") == "m"
    assert forwards.value("tensor_parallel_size") == 2  # an abbreviation TRL takes
    assert forwards.value("enable_prefix_caching") is False
    assert forwards.value("logprobs_mode") == "processed_logprobs"
    assert forwards.value("max_logprobs") == -1
    assert forwards.value("return_sampling_mask") is True


def test_trl_110_refuses_the_words_its_parser_does_not_take() -> None:
    launch = shell_launch("trl vllm-serve --model m --tensor 2 --return-sampling-mask\n")
    assert launch.framework is not None
    refuses = launch.framework.editions["1.10.0"]
    assert refuses.get("return_sampling_mask") is None and refuses.get("tensor_parallel_size") is None
    (issue,) = refuses.issues
    assert issue.kind == "framework-rejected" and issue.spelling == "--return-sampling-mask"
    assert issue.detail == "Some specified arguments are not used by the HfArgumentParser: ['--return-sampling-mask']"


def test_trl_110_runs_llm_in_process_with_its_own_logprobs_mode() -> None:
    launch = shell_launch("trl vllm-serve --model Qwen/Qwen2.5-7B --tensor-parallel-size 2\n")
    assert launch.framework is not None
    refuses = launch.framework.editions["1.10.0"]
    assert refuses.issues == () and refuses.value("tensor_parallel_size") == 2
    assert refuses.value("logprobs_mode") == "processed_logprobs" and refuses.get("max_logprobs") is None


def test_trl_config_env_and_extras() -> None:
    files = {"c.yaml": "model: m\nenforce_eager: true\nmax_num_seqs: 8\nenv:\n  VLLM_USE_V2_MODEL_RUNNER: 0\n"}
    launch = shell_launch("python -m trl.scripts.vllm_serve --config c.yaml --return-sampling-mask\n", files)
    assert launch.framework is not None
    forwards = launch.framework.editions["1.16.0"]
    assert forwards.value("model") == "m"
    assert forwards.value("enforce_eager") is True
    assert forwards.value("max_num_seqs") == "8"  # `--max_num_seqs 8`: vLLM reads the word
    assert forwards.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"


# -- SkyRL ---------------------------------------------------------------------------------------


def test_skyrl_engine_init_kwargs_as_written() -> None:
    text = (
        "uv run --isolated -m skyrl.train.entrypoints.main_base generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \\\n"
        "  generator.inference_engine.engine_init_kwargs.logprobs-mode=processed_logprobs \\\n"
        "  +generator.inference_engine.engine_init_kwargs.enable_dbo=true generator.sampling_params.top_k=5\n"
    )
    launch = shell_launch(text)
    assert launch.value("return_sampling_mask") is True
    assert launch.get("logprobs_mode") is None  # a kebab-case attribute vLLM never reads
    assert launch.get("enable_dbo") is None  # SkyRL rejects the `+` prefix
    assert launch.value("generation_config") == "vllm"


@pytest.mark.parametrize(("size", "expected"), [("1", False), ("4", True), ("$EP", UNKNOWN)])
def test_skyrl_expert_parallel_size_becomes_enable_expert_parallel(size: str, expected: object) -> None:
    """SkyRL passes `enable_expert_parallel=expert_parallel_size > 1`, as NeMo-RL does."""
    text = (
        "python -m skyrl.train.entrypoints.main_base generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \\\n"
        f"  generator.inference_engine.expert_parallel_size={size}\n"
    )
    assert shell_launch(text).value("enable_expert_parallel") is expected


def test_skyrl_sample_support_is_not_a_vllm_argument() -> None:
    text = "python -m skyrl.train.entrypoints.main_base generator.inference_engine.enable_return_sample_support_set=true\n"
    launch = shell_launch(text)
    assert launch.get("return_sampling_mask") is None and launch.get("enable_return_sample_support_set") is None


# -- SageMaker -----------------------------------------------------------------------------------


def _env(**values: str) -> dict[str, Setting]:
    span = Span("f", 1, 1, 1, 1, 0, 0)
    return {name: Setting(name, value, span, f"{name}={value}", span) for name, value in values.items()}


def test_sagemaker_variants() -> None:
    env = _env(SM_VLLM_RETURN_SAMPLING_MASK="true", SM_VLLM_ENFORCE_EAGER="False", SM_VLLM_MAX_MODEL_LEN="8192", SM_VLLM_X="", HF_TOKEN="t")
    legacy = [token.text for token in sagemaker.words(env, sagemaker.LEGACY)]
    boolean = [token.text for token in sagemaker.words(env, sagemaker.BOOLEAN)]
    assert legacy == ["--return-sampling-mask", "true", "--enforce-eager", "False", "--max-model-len", "8192", "--x"]
    assert boolean == ["--return-sampling-mask", "--max-model-len", "8192", "--x"]


def test_sagemaker_variant_from_script_or_image() -> None:
    assert sagemaker.variant_for(None, "/usr/local/bin/sagemaker-entrypoint.sh") == sagemaker.LEGACY
    assert sagemaker.variant_for(None, "/usr/local/bin/sagemaker_entrypoint.sh") == sagemaker.BOOLEAN
    assert (
        sagemaker.variant_for("763104351884.dkr.ecr.us-west-2.amazonaws.com/vllm:0.33.0-gpu-py312-cu130-ubuntu22.04-sagemaker", None)
        == sagemaker.BOOLEAN
    )
    assert sagemaker.variant_for("vllm/vllm-openai:v0.33.0", None) is None


def test_sagemaker_dockerfile_without_sm_variables_is_no_launch(check) -> None:
    text = "FROM public.ecr.aws/deep-learning-containers/vllm:server-sagemaker-cuda\nENV VLLM_USE_V2_MODEL_RUNNER=1\n"
    assert codes(check, {"Dockerfile": text + "ENV SM_VLLM_RETURN_SAMPLING_MASK=\n"}, "Dockerfile", "0.33.0") == []


# -- Dynamo --------------------------------------------------------------------------------------


def test_dynamo_records_its_own_rejection() -> None:
    launch = shell_launch("DYN_ENABLE_RL=yes python -m dynamo.vllm --model m --return-sampling-mask --logprobs-mode raw_logits\n")
    (issue,) = [issue for issue in launch.issues if issue.kind == "framework-rejected"]
    assert "--enable-rl requires logprobs_mode=processed_logprobs; got 'raw_logits'" in issue.detail
    launch = shell_launch("python -m dynamo.vllm --model m --enable-rl --return-sampling-mask --logprobs-mode raw_logprobs\n")
    assert launch.value("logprobs_mode") == "processed_logprobs"
    assert not [issue for issue in launch.issues if issue.kind == "framework-rejected"]
