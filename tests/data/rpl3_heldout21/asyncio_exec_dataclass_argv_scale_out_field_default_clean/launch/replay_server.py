"""Start the replay server for the rollout workers (asyncio, one process)."""

import asyncio
from dataclasses import dataclass, field


@dataclass
class ReplayServerArgs:
    model: str = "Qwen/Qwen3-8B"
    port: int = 8000
    scale_out: bool = True
    extra: list[str] = field(default_factory=list)

    def argv(self) -> list[str]:
        argv = ["serve", self.model, "--port", str(self.port)]
        argv += ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
        if self.scale_out:
            argv.append("--enable-scale-out")
        return argv + self.extra


async def main() -> None:
    args = ReplayServerArgs(extra=["--max-model-len", "8192"])
    proc = await asyncio.create_subprocess_exec("vllm", *args.argv())
    await proc.wait()


if __name__ == "__main__":
    asyncio.run(main())
