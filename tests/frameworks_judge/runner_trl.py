"""TRL: `trl vllm-serve ARGV` up to the vLLM engine it starts (judge virtualenv only).

Real (TRL's wheel, unmodified): the parser `make_parser(prog="trl vllm-serve")` (0.29:
`make_parser()`) and `parse_args_and_config` as `trl/cli/commands/vllm_serve.py` calls them (1.11 and later with
`return_remaining_strings=True`: unknown words are forwarded to vLLM; 1.10.0 and earlier without:
HfArgumentParser refuses them). Then, 1.11 and later: `build_command(script_args, extra_args)`,
the `python -m vllm.entrypoints.cli.main serve ...` command `main` execs, whose words after `serve`
are the launch, with the environment `main` sets (`VLLM_SERVER_DEV_MODE=1`, and what it copies
from a `--config` file's `env:`); 1.10.0 and earlier: `llm_worker`, whose `LLM(...)` keywords
(`logprobs_mode="processed_logprobs"` among them) are the launch, with the `VLLM_DP_*` variables it
sets.

Replaced: nothing of TRL's; `main`'s `os.execve` (1.11+) and vLLM's `LLM` (1.10.0 and earlier, as
`vllm.LLM` and as the module's own `LLM` where it imports it at its top: 0.29) are stopped
where they receive the command or the keywords. Requests are not judged: TRL's trainer sends them
(`GRPOConfig`), not the serve command.
"""

from __future__ import annotations

import inspect
import os
import sys
from pathlib import Path

from judge_support import FrameworkError, JudgeError, Launch, stderr_text, vllm_env


class _Stop(BaseException):
    def __init__(self, value) -> None:
        self.value = value


class Runner:
    def __init__(self, frameworks: Path, release: str) -> None:
        folder = frameworks / f"trl-{release}"
        if not (folder / "trl").is_dir():
            raise JudgeError(f"trl {release} is not installed (scripts/setup-framework-judges.sh)")
        self.folders = [str(folder)]
        for path in (str(frameworks / "common"), *self.folders):
            if path not in sys.path:
                sys.path.insert(0, path)

    def launch(self, case: dict) -> Launch:
        from trl.scripts import vllm_serve

        argv = list(case.get("argv") or [])
        saved = dict(os.environ)
        os.environ.update(case.get("env") or {})
        try:
            # 1.0.0+ name the program; 0.29's `make_parser` takes no `prog` (its CLI calls it bare)
            named = "prog" in inspect.signature(vllm_serve.make_parser).parameters
            parser = vllm_serve.make_parser(prog="trl vllm-serve") if named else vllm_serve.make_parser()
            forwards = hasattr(vllm_serve, "build_command")
            try:
                with stderr_text() as text:
                    parsed = parser.parse_args_and_config(args=argv, return_remaining_strings=forwards)
            except (Exception, SystemExit) as error:
                raise FrameworkError.from_exception(error, text.getvalue()) from None
            if forwards:
                return self._command(vllm_serve, parsed[0], parsed[-1])
            return self._llm(vllm_serve, parsed[0])
        finally:
            os.environ.clear()
            os.environ.update(saved)

    @staticmethod
    def _command(vllm_serve, script_args, extra_args) -> Launch:
        """What `main` execs (1.11+)."""

        def stop(program, command, env):
            raise _Stop((list(command), dict(env)))

        real = os.execve
        os.execve = stop
        try:
            command, env = _stopped(
                lambda: vllm_serve.main(script_args, list(extra_args or [])), "trl vllm-serve returned without starting vLLM"
            )
        finally:
            os.execve = real
        return Launch(argv=command[command.index("serve") + 1 :], env=vllm_env(env))

    @staticmethod
    def _llm(vllm_serve, script_args) -> Launch:
        """The `LLM(...)` of `llm_worker` (1.10.0 and earlier)."""
        import vllm

        def stop(*args, **kwargs):
            raise _Stop((kwargs, vllm_env(dict(os.environ))))

        # 1.x import `LLM` inside `llm_worker`; 0.29 at the module's top (its own name for it)
        holders = [module for module in (vllm, vllm_serve) if getattr(module, "LLM", None) is vllm.LLM]
        real = vllm.LLM
        for module in holders:
            module.LLM = stop
        try:
            kwargs, env = _stopped(lambda: vllm_serve.llm_worker(script_args, 0, 29500, None), "llm_worker built no LLM")
        finally:
            for module in holders:
                module.LLM = real
        return Launch(engine_kwargs=kwargs, via="LLM", env=env)


def _stopped(call, never: str) -> tuple:
    """What `call` handed the stand-in that stopped it (`_Stop`); the framework's own error, or
    `never` when it returned without reaching the stand-in."""
    try:
        call()
    except _Stop as stop:
        return stop.value
    except (Exception, SystemExit) as error:
        raise FrameworkError.from_exception(error) from None
    raise JudgeError(never)
