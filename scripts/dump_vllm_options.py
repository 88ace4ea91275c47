#!/usr/bin/env python3
"""Dump every option string registered on `vllm serve`'s real argument parser.

Runs inside the judge virtualenv (scripts/setup-vllm-judge.sh).  For the
installed vLLM (0.33.0) no extra argument is needed; for another release,
install its wheel without dependencies into a separate folder and point
--vllm-path at it, e.g.

    pip download --no-deps vllm==0.30.0 -d /tmp/w
    .venv-judge/bin/pip install --no-deps --target /tmp/vllm-0.30.0 /tmp/w/vllm-0.30.0-*.whl
    .venv-judge/bin/python scripts/dump_vllm_options.py --release 0.30.0 \\
        --vllm-path /tmp/vllm-0.30.0 --out src/replaylint/vllm/data/cli-options-0.30.0.json

That release's own code then builds its parser against the judge
environment's dependencies.  The parser is built as `vllm` (cli/main.py)
builds it: a FlexibleArgumentParser with the `serve` subcommand registered by
vllm.entrypoints.cli.serve's own cmd_init()/subparser_init(), on the CUDA
platform (answered as one H100, compiled kernel modules replaced by empty
modules), so platform-dependent registrations are those of a GPU host.

--check-matrix FILE compares the shortest unique prefixes of the dumped
option strings with the matrix's cli.abbreviations and prints mismatches.

Output shape (keys sorted, one option per line):
  {"release": ..., "source": ..., "positional": [{"dest": ..., "nargs": ...}],
   "options": {"--opt": {"dest": ..., "nargs": 0|1|"?"|"+"|"*"|int,
                         "choices": [...]}, ...}}
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import json
import os
import sys
import types

SOURCE_TEMPLATE = (
    "real parser: vllm {release} wheel from PyPI installed with pip --no-deps{where}; "
    "`vllm serve` parser built by that release's own "
    "vllm.entrypoints.cli.serve cmd_init()/subparser_init() under a "
    "FlexibleArgumentParser(prog='vllm') as cli/main.py does, on the CUDA platform "
    "(one H100 answered, kernel modules stubbed) with the judge venv's dependencies "
    "(torch 2.13.0 CPU, Python 3.11), by scripts/dump_vllm_options.py; "
    "options = every key of the serve parser's _option_string_actions "
    "(hidden aliases included)"
)


class _PatchAfterImport:
    """Meta-path finder: run patch(module) right after a module is executed."""

    def __init__(self, patches):
        self.patches = patches

    def find_spec(self, fullname, path, target=None):
        patch = self.patches.get(fullname)
        if patch is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return None
        orig_exec = spec.loader.exec_module

        def exec_module(module):
            orig_exec(module)
            patch(module)

        spec.loader.exec_module = exec_module
        return spec


def _prepare_environment(vllm_path: str | None) -> None:
    if vllm_path:
        sys.path.insert(0, os.path.abspath(vllm_path))
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ["VLLM_NO_USAGE_STATS"] = "1"
    os.environ["DO_NOT_TRACK"] = "1"
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
    os.environ.pop("VLLM_TARGET_DEVICE", None)

    import importlib.util

    spec = importlib.util.find_spec("vllm")
    if spec is None or spec.origin is None:
        sys.exit("dump_vllm_options: vllm is not importable")
    root = os.path.dirname(spec.origin)
    if vllm_path and not os.path.abspath(root).startswith(os.path.abspath(vllm_path)):
        sys.exit(f"dump_vllm_options: vllm resolves to {root}, not under {vllm_path}")
    # Compiled extension modules -> empty modules (they are CUDA builds).
    for dirpath, _dirs, files in os.walk(root):
        for fn in files:
            if fn.endswith(".so"):
                rel = os.path.relpath(dirpath, os.path.dirname(root))
                name = ".".join([*rel.split(os.sep), fn.split(".", 1)[0]])
                sys.modules[name] = types.ModuleType(name)

    # NVML answered as one H100, so the CUDA platform is selected.  The
    # answers are installed the moment vllm.third_party.pynvml is imported
    # (some releases resolve the platform while `import vllm` runs).
    def fake_nvml(pynvml):
        class _Mem:
            total = free = 85520809984
            used = 0

        pynvml.nvmlInit = lambda *a, **k: None
        pynvml.nvmlShutdown = lambda *a, **k: None
        pynvml.nvmlDeviceGetCount = lambda: 1
        pynvml.nvmlDeviceGetHandleByIndex = lambda i: object()
        pynvml.nvmlDeviceGetCudaComputeCapability = lambda h: (9, 0)
        pynvml.nvmlDeviceGetName = lambda h: "NVIDIA H100 80GB HBM3"
        pynvml.nvmlDeviceGetMemoryInfo = lambda h, *a: _Mem()

    sys.meta_path.insert(0, _PatchAfterImport({"vllm.third_party.pynvml": fake_nvml}))
    import torch

    for name, fn in {
        "cutlass_scaled_mm_supports_fp8": lambda cap: cap >= 89,
        "cutlass_scaled_mm_supports_block_fp8": lambda cap: cap >= 90,
        "cutlass_scaled_mm_supports_fp4": lambda cap: cap >= 100,
        "cutlass_group_gemm_supported": lambda cap: 90 <= cap < 110,
        "mxfp4_experts_quant_supported": lambda cap: cap >= 100,
    }.items():
        setattr(torch.ops._C, name, fn)


def build_serve_parser():
    import importlib.metadata

    import vllm.entrypoints.cli.serve as serve_mod  # type: ignore
    from vllm.utils.argparse_utils import FlexibleArgumentParser  # type: ignore

    parser = FlexibleArgumentParser(prog="vllm", description="vLLM CLI")
    parser.add_argument("-v", "--version", action="version", version=importlib.metadata.version("vllm"))
    subparsers = parser.add_subparsers(required=False, dest="subparser")
    serve_parser = None
    for cmd in serve_mod.cmd_init():
        p = cmd.subparser_init(subparsers)
        if cmd.name == "serve":
            serve_parser = p
    if serve_parser is None:
        sys.exit("dump_vllm_options: no serve subcommand")
    return parser, serve_parser


def _nargs(action: argparse.Action):
    if action.nargs is None:
        return 1
    return action.nargs


def describe(serve_parser) -> tuple[list, dict]:
    positional = [{"dest": a.dest, "nargs": _nargs(a)} for a in serve_parser._actions if not a.option_strings]
    options = {}
    for opt, action in serve_parser._option_string_actions.items():
        entry = {"dest": action.dest, "nargs": _nargs(action)}
        if action.choices is not None:
            entry["choices"] = [str(c) for c in action.choices]
        options[opt] = entry
    return positional, dict(sorted(options.items()))


def render(doc: dict) -> str:
    """Keys sorted ("options" < "positional" < "release" < "source"), one option per line."""
    lines = ["{", '"options": {']
    items = list(doc["options"].items())
    for i, (opt, entry) in enumerate(items):
        sep = "," if i < len(items) - 1 else ""
        lines.append(f"  {json.dumps(opt)}: {json.dumps(entry, sort_keys=True)}{sep}")
    lines.append("},")
    rest = sorted(k for k in doc if k != "options")
    for i, k in enumerate(rest):
        sep = "," if i < len(rest) - 1 else ""
        lines.append(f"{json.dumps(k)}: {json.dumps(doc[k], sort_keys=True)}{sep}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def shortest_unique_prefix(opt: str, options) -> str | None:
    """Shortest abbreviation argparse (3.11) resolves to `opt` alone."""
    longs = [o for o in options if o.startswith("--")]
    for k in range(3, len(opt) + 1):
        p = opt[:k]
        if p in options and p != opt:
            continue  # an exact match of another option wins
        if [o for o in longs if o.startswith(p)] == [opt] or p == opt:
            return p
    return None


def check_matrix(doc: dict, matrix_path: str) -> list[str]:
    with open(matrix_path) as f:
        matrix = json.load(f)
    abbr = matrix["cli"]["abbreviations"]
    release = doc["release"]
    rel = tuple(int(x) for x in release.split("."))
    expected = dict(abbr.get("all_versions", {}))
    for key, table in abbr.items():
        if key in ("note", "all_versions", "ambiguous_examples"):
            continue
        lo, _, hi = key.partition("-")
        lo_t = tuple(int(x) for x in lo.split("."))
        hi_t = tuple(int(x) for x in (hi or lo).split("."))
        if lo_t <= rel <= hi_t:
            expected.update(table)
    problems = []
    options = doc["options"]
    for opt, want in sorted(expected.items()):
        if opt not in options:
            problems.append(f"{release}: {opt} is not registered (matrix says prefix {want})")
            continue
        got = shortest_unique_prefix(opt, options)
        if got != want:
            problems.append(f"{release}: {opt}: shortest unique prefix is {got}, matrix says {want}")
    for prefix, what in sorted(abbr.get("ambiguous_examples", {}).items()):
        matches = [o for o in options if o.startswith(prefix)]
        if prefix in options or len(matches) < 2:
            problems.append(f"{release}: {prefix} is not ambiguous here (matches {matches}); matrix: {what}")
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--release", help="expected vLLM version (checked)")
    ap.add_argument("--vllm-path", help="folder holding that release's `vllm` package")
    ap.add_argument("--out", help="write the JSON here (default: stdout)")
    ap.add_argument("--source", help="override the 'source' text")
    ap.add_argument("--check-matrix", metavar="MATRIX_JSON", help="compare shortest unique prefixes with the spec matrix")
    args = ap.parse_args(argv)

    _prepare_environment(args.vllm_path)
    import vllm  # type: ignore
    from vllm.platforms import current_platform  # type: ignore

    if not current_platform.is_cuda():
        sys.exit(f"dump_vllm_options: expected the CUDA platform, got {type(current_platform).__name__}")
    version = vllm.__version__
    if args.release and version != args.release:
        sys.exit(f"dump_vllm_options: imported vllm {version}, expected {args.release}")
    _top, serve_parser = build_serve_parser()
    positional, options = describe(serve_parser)
    where = " into a separate --target folder" if args.vllm_path else " into the judge venv"
    doc = {
        "release": version,
        "source": args.source or SOURCE_TEMPLATE.format(release=version, where=where),
        "positional": positional,
        "options": options,
    }
    text = render(doc)
    json.loads(text)  # well-formed
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
        print(f"dump_vllm_options: {len(options)} option strings for vllm {version} -> {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if args.check_matrix:
        problems = check_matrix(doc, args.check_matrix)
        for p in problems:
            print("MISMATCH", p, file=sys.stderr)
        if not problems:
            print(f"dump_vllm_options: {version}: all matrix abbreviations agree", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
