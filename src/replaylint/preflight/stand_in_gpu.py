"""One NVIDIA H100 for a vLLM that runs where there is no GPU it can use (a CI runner), as the
project's differential judge emulates it (tests/differential/JUDGE.md): vLLM's compiled
extension modules become empty modules, NVML answers as one H100 (compute capability 9.0),
the kernel capability queries vLLM makes at import are answered as its CUDA build answers them
there, Triton counts as present, and model classes are inspected in-process.

Used only by `ask_vllm`, in its own child process, when vLLM found no device: `install()`
before vLLM is imported, `after_import()` once it is.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import types

H100_NAME = "NVIDIA H100 80GB HBM3"
H100_CAPABILITY = (9, 0)
H100_MEMORY = 85520809984  # bytes, as NVML reports an H100 SXM 80GB


class _PatchAfterImport:
    """A meta-path finder that runs `patch(module)` right after a module is executed."""

    def __init__(self, patches: dict) -> None:
        self.patches = patches

    def find_spec(self, fullname: str, path: object, target: object = None) -> object:
        patch = self.patches.get(fullname)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path) if patch is not None else None  # type: ignore[arg-type]
        if spec is None or spec.loader is None:
            return None
        run = spec.loader.exec_module

        def exec_module(module: types.ModuleType) -> None:
            run(module)
            patch(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install() -> None:
    spec = importlib.util.find_spec("vllm")
    if spec is None or spec.origin is None:
        return
    root = os.path.dirname(spec.origin)
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(".so"):
                relative = os.path.relpath(folder, os.path.dirname(root))
                module = ".".join([*relative.split(os.sep), name.split(".", 1)[0]])
                sys.modules[module] = types.ModuleType(module)
    sys.meta_path.insert(0, _PatchAfterImport({"vllm.third_party.pynvml": _nvml}))
    _kernel_capabilities()


def after_import() -> None:
    import vllm.config.vllm as config
    import vllm.model_executor.models.registry as registry
    import vllm.platforms.cuda as cuda

    cuda._cuda_device_count_stateless = lambda cuda_visible_devices=None: 1
    config.HAS_TRITON = True
    registry._run_in_subprocess = lambda function: function()


def _nvml(pynvml: types.ModuleType) -> None:
    class Handle:
        index = 0

    class Memory:
        total = free = H100_MEMORY
        used = 0

    class Pci:
        busId = "00000000:00:00.0"

    def handle(index: int) -> Handle:
        if int(index) != 0:
            raise pynvml.NVMLError(pynvml.NVML_ERROR_INVALID_ARGUMENT)
        return Handle()

    answers = {
        "nvmlInit": lambda *a, **k: None,
        "nvmlShutdown": lambda *a, **k: None,
        "nvmlDeviceGetCount": lambda: 1,
        "nvmlDeviceGetHandleByIndex": handle,
        "nvmlDeviceGetHandleByUUID": lambda uuid: Handle(),
        "nvmlDeviceGetIndex": lambda h: 0,
        "nvmlDeviceGetCudaComputeCapability": lambda h: H100_CAPABILITY,
        "nvmlDeviceGetName": lambda h: H100_NAME,
        "nvmlDeviceGetUUID": lambda h: "GPU-00000000-0000-0000-0000-000000000000",
        "nvmlDeviceGetMemoryInfo": lambda h, *a: Memory(),
        "nvmlDeviceGetPciInfo": lambda h: Pci(),
        "nvmlDeviceGetP2PStatus": lambda a, b, index: pynvml.NVML_P2P_STATUS_OK,
        "nvmlDeviceGetNumaNodeId": lambda h: 0,
        "nvmlDeviceGetCpuAffinity": lambda h, n: [(1 << min(os.cpu_count() or 1, 63)) - 1],
    }
    for name, answer in answers.items():
        setattr(pynvml, name, answer)


def _kernel_capabilities() -> None:
    """`torch.ops._C` queries vLLM makes at import (csrc/quantization/w8a8/cutlass), answered
    for compute capability 9.0."""
    import torch

    answers = {
        "cutlass_scaled_mm_supports_fp8": lambda capability: capability >= 89,
        "cutlass_scaled_mm_supports_block_fp8": lambda capability: capability >= 90,
        "cutlass_scaled_mm_supports_fp4": lambda capability: capability >= 100,
        "cutlass_group_gemm_supported": lambda capability: 90 <= capability < 110,
        "mxfp4_experts_quant_supported": lambda capability: capability >= 100,
    }
    for name, answer in answers.items():
        setattr(torch.ops._C, name, answer)
