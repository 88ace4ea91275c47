"""What held-out round 44 made replaylint read. zjunlp/DataMind's DSGym backend: a greedy keyword default
of `VLLMBackend.__init__` (`temperature: float = 0.0`) reaches the request `generate()` builds through
`self.sampling_params.temperature` (a field of a `SamplingParams(...)` read where it was built) when the
driver makes the backend with `get_backend(name, model)`, a factory that picks the class from a dict it
spells (`backend_class = backend_map[backend_type]`, `return backend_class(model_name, **kwargs)`).
Tencent-Hunyuan/HunyuanOCR's serve_DFlash.sh: a `--speculative-config` JSON written around unknown
expansions (`\\"model\\":\\"${DFLASH_PATH}\\"` where `DFLASH_PATH` rests on a required `MODEL_PATH`)
still holds the keys written in it, so `enable_adaptive_verification: true` is reported."""

from __future__ import annotations

from pathlib import Path

from tests.test_python_flow_round10 import check

BACKEND = (
    "try:\n"  # 1
    "    from vllm import LLM, SamplingParams\n"  # 2
    "except ImportError:\n"  # 3
    "    LLM = SamplingParams = None\n"  # 4
    "\n"  # 5
    "\n"  # 6
    "class VLLMBackend:\n"  # 7
    "    def __init__(self, model_name, temperature: float = 0.0, top_p: float = 1.0, **kwargs):\n"  # 8
    "        self.llm = LLM(model=model_name, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"  # 9
    "        self.sampling_params = SamplingParams(temperature=temperature, top_p=top_p)\n"  # 10
    "\n"  # 11
    "    def generate(self, prompt, **kwargs):\n"  # 12
    "        params = SamplingParams(\n"  # 13
    "            temperature=kwargs.get('temperature', self.sampling_params.temperature),\n"  # 14
    "            top_k=20,\n"  # 15
    "        )\n"  # 16
    "        return self.llm.generate([prompt], params)[0].outputs[0].text\n"  # 17
)

FACTORY = (
    "from .vllm_backend import VLLMBackend\n"
    "\n"
    "\n"
    "def get_backend(backend_type, model_name, **kwargs):\n"
    "    backend_map = {\n"
    "        'vllm': VLLMBackend,\n"
    "    }\n"
    "    backend_type = backend_type.lower()\n"
    "    if backend_type not in backend_map:\n"
    "        raise ValueError(backend_type)\n"
    "    backend_class = backend_map[backend_type]\n"
    "    return backend_class(model_name, **kwargs)\n"
)

DRIVER = (
    "import argparse\n"  # 1
    "\n"  # 2
    "from pkg.backends import get_backend\n"  # 3
    "\n"  # 4
    "\n"  # 5
    "def main():\n"  # 6
    "    parser = argparse.ArgumentParser()\n"  # 7
    "    parser.add_argument('--backend', default='vllm')\n"  # 8
    "    parser.add_argument('--temperature', type=float, default=0.8)\n"  # 9
    "    args = parser.parse_args()\n"  # 10
    "    backend = get_backend(args.backend, 'm'{given})\n"  # 11
    "    print(backend.generate('question'))\n"  # 12
    "\n"  # 13
    "\n"  # 14
    "if __name__ == '__main__':\n"  # 15
    "    main()\n"  # 16
)


def _tree(factory: str = FACTORY, given: str = "", backend: str = BACKEND) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/backends/__init__.py": factory,
        "pkg/backends/vllm_backend.py": backend,
        "run.py": DRIVER.replace("{given}", given),
    }


def test_the_backends_greedy_default_reaches_the_request_through_its_params_field(tmp_path: Path) -> None:
    assert check(tmp_path, _tree()) == [("vllm_backend.py", 8, "RPL101")]


def test_the_drivers_sampled_temperature_given_to_the_factory_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, _tree(given=", temperature=args.temperature")) == []


def test_a_greedy_temperature_the_driver_gives_is_reported_where_the_driver_writes_it(tmp_path: Path) -> None:
    tree = _tree(given=", temperature=args.temperature")
    tree["run.py"] = tree["run.py"].replace("type=float, default=0.8", "type=float, default=0.0")
    assert check(tmp_path, tree) == [("run.py", 9, "RPL101")]


def test_a_module_level_registry_indexed_in_the_return_is_a_factory_too(tmp_path: Path) -> None:
    factory = (
        "from .vllm_backend import VLLMBackend\n"
        "\n"
        "BACKENDS = {'vllm': VLLMBackend}\n"
        "\n"
        "\n"
        "def get_backend(name, model_name, **kwargs):\n"
        "    return BACKENDS[name.lower()](model_name, **kwargs)\n"
    )
    assert check(tmp_path, _tree(factory)) == [("vllm_backend.py", 8, "RPL101")]


def test_a_registry_of_several_classes_picked_by_a_key_from_the_environment_stays_silent(tmp_path: Path) -> None:
    factory = FACTORY.replace("        'vllm': VLLMBackend,\n", "        'vllm': VLLMBackend,\n        'api': ApiBackend,\n")
    factory = "class ApiBackend:\n    def __init__(self, model_name, **kwargs):\n        pass\n\n\n" + factory
    tree = _tree(factory)
    tree["run.py"] = tree["run.py"].replace("get_backend(args.backend,", "get_backend(os.environ['BACKEND'],")
    tree["run.py"] = "import os\n" + tree["run.py"]
    assert check(tmp_path, tree) == []


def test_a_params_field_its_construction_does_not_write_is_not_read(tmp_path: Path) -> None:
    backend = BACKEND.replace("SamplingParams(temperature=temperature, top_p=top_p)", "SamplingParams(top_p=top_p)")
    assert check(tmp_path, _tree(backend=backend)) == []


def test_a_params_field_is_read_in_one_module_too(tmp_path: Path) -> None:
    module = (
        "from vllm import LLM, SamplingParams\n"
        "\n"
        "GREEDY = SamplingParams(temperature=0.0, max_tokens=64)\n"
        "llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        "llm.generate(['q'], SamplingParams(temperature=GREEDY.temperature, top_k=20))\n"
    )
    assert check(tmp_path, {"run.py": module}) == [("run.py", 3, "RPL101")]


# serve_DFlash.sh: the JSON of `--speculative-config` written around expansions

SERVE = (
    "#!/usr/bin/env bash\n"  # 1
    "set -euo pipefail\n"  # 2
    ': "${MODEL_PATH:?MODEL_PATH is required}"\n'  # 3
    "DFLASH_PATH=${DFLASH_PATH:-${MODEL_PATH}/dflash}\n"  # 4
    "NUM_SPEC_TOKENS=${NUM_SPEC_TOKENS:-15}\n"  # 5
    'vllm serve "${MODEL_PATH}" --enable-scale-out \\\n'  # 6
    "    --return-sampling-mask --logprobs-mode processed_logprobs \\\n"  # 7
    "    --speculative-config SPEC\n"  # 8
)


def _serve(spec: str) -> dict[str, str]:
    return {"serve_DFlash.sh": SERVE.replace("SPEC", spec)}


ADAPTIVE = (
    r'"{\"method\":\"dflash\",\"model\":\"${DFLASH_PATH}\",\"num_speculative_tokens\":${NUM_SPEC_TOKENS},'
    r'\"enable_adaptive_verification\":true}"'
)


def test_adaptive_verification_in_json_around_unknown_expansions_is_reported(tmp_path: Path) -> None:
    assert check(tmp_path, _serve(ADAPTIVE)) == [("serve_DFlash.sh", 8, "RPL002")]


def test_the_same_json_without_adaptive_verification_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, _serve(ADAPTIVE.replace(r",\"enable_adaptive_verification\":true", ""))) == []


def test_an_expansion_in_a_key_or_in_the_adaptive_value_keeps_the_config_unknown(tmp_path: Path) -> None:
    key = ADAPTIVE.replace(r"\"enable_adaptive_verification\"", r"\"${EXTRA_KEY}\"")
    value = ADAPTIVE.replace(r"\"enable_adaptive_verification\":true", r"\"enable_adaptive_verification\":${ADAPTIVE}")
    assert check(tmp_path, _serve(key)) == []
    assert check(tmp_path, _serve(value)) == []


def test_an_expansion_glued_to_a_number_leaves_json_that_cannot_be_read(tmp_path: Path) -> None:
    glued = ADAPTIVE.replace("${NUM_SPEC_TOKENS}", "1${UNSET_DIGITS}")
    assert check(tmp_path, _serve(glued)) == []


def test_a_single_quoted_json_with_a_spliced_double_quoted_variable(tmp_path: Path) -> None:
    spliced = """'{"method": "dflash", "model": "'"$DFLASH_PATH"'", "enable_adaptive_verification": true}'"""
    assert check(tmp_path, _serve(spliced)) == [("serve_DFlash.sh", 8, "RPL002")]
