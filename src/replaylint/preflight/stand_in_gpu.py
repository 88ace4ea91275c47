"""NVIDIA H100s for a vLLM that runs where there is no GPU it can use (a CI runner, the CPU build
of torch): vLLM's compiled extension modules become empty modules, NVML answers as H100s
(compute capability 9.0), the kernel capability queries vLLM makes at import are answered as
its CUDA build answers them there, Triton counts as present, and model classes are inspected
in-process (tests/differential/JUDGE.md).

The one emulation of the GPU: `ask_vllm` uses it in its own child process when vLLM found no
device (`preflight --judge`), and the project's differential judge (tests/differential/
vllm_judge.py) for every case. `install()` before vLLM is imported, `after_import()` once it is;
`set_device_count` changes how many H100s there are between launches.
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
H100_UUID = "GPU-00000000-0000-0000-0000-000000000000"
H100_PCI_BUS = "00000000:00:00.0"

_devices = [1]  # how many H100s NVML and vLLM's device count report


def set_device_count(count: int) -> None:
    _devices[0] = count


def vllm_folder() -> str | None:
    """The folder of the `vllm` package the next import finds (nothing is imported)."""
    spec = importlib.util.find_spec("vllm")
    return os.path.dirname(spec.origin) if spec is not None and spec.origin is not None else None


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


def install() -> list[str]:
    """Stand in for the GPU before vLLM is imported; the extension modules made empty."""
    root = vllm_folder()
    if root is None:
        return []
    stubbed = _extension_modules(root)
    for name in stubbed:
        module = types.ModuleType(name)
        module.__file__ = f"<stand-in for {name}>"
        sys.modules[name] = module
    # Installed the moment the module is imported: some releases resolve the platform while
    # `import vllm` itself runs.
    sys.meta_path.insert(0, _PatchAfterImport({"vllm.third_party.pynvml": _nvml}))
    _kernel_capabilities()
    return stubbed


def _extension_modules(root: str) -> list[str]:
    """vLLM's compiled extension modules (CUDA builds that cannot load next to CPU torch)."""
    names = []
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".so"):
                relative = os.path.relpath(folder, os.path.dirname(root))
                names.append(".".join([*relative.split(os.sep), name.split(".", 1)[0]]))
    return sorted(names)


def after_import() -> None:
    import vllm.platforms.cuda as cuda

    # torch is the CPU build, so torch.cuda counts no device.
    cuda._cuda_device_count_stateless = lambda cuda_visible_devices=None: _devices[0]
    import vllm.config.vllm as config
    import vllm.model_executor.models.registry as registry

    config.HAS_TRITON = True  # as on a GPU host, where Triton is importable
    # vLLM inspects a model class in a fresh subprocess, which would not have these stand-ins.
    registry._run_in_subprocess = lambda function: function()


def _nvml(pynvml: types.ModuleType) -> None:
    class Handle:
        def __init__(self, index: int) -> None:
            self.index = index

    class Memory:
        total = free = H100_MEMORY
        used = 0

    class Pci:
        busId = H100_PCI_BUS

    def handle(index: int) -> Handle:
        if not 0 <= int(index) < _devices[0]:
            raise pynvml.NVMLError(pynvml.NVML_ERROR_INVALID_ARGUMENT)
        return Handle(int(index))

    answers = {
        "nvmlInit": lambda *a, **k: None,
        "nvmlShutdown": lambda *a, **k: None,
        "nvmlDeviceGetCount": lambda: _devices[0],
        "nvmlDeviceGetHandleByIndex": handle,
        "nvmlDeviceGetHandleByUUID": lambda uuid: Handle(0),
        "nvmlDeviceGetIndex": lambda h: h.index,
        "nvmlDeviceGetCudaComputeCapability": lambda h: H100_CAPABILITY,
        "nvmlDeviceGetName": lambda h: H100_NAME,
        "nvmlDeviceGetUUID": lambda h: H100_UUID,
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
