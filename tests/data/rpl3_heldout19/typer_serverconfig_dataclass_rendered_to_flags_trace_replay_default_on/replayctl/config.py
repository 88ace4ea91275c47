from dataclasses import dataclass


@dataclass
class ServerConfig:
    model: str = "Qwen/Qwen3-0.6B"
    port: int = 8000
    max_model_len: int = 8192
    enable_trace_replay: bool = True

    def to_argv(self) -> list[str]:
        argv = ["vllm", "serve", self.model, "--port", str(self.port), "--max-model-len", str(self.max_model_len)]
        argv += ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]
        if self.enable_trace_replay:
            argv.append("--enable-trace-replay")
        return argv
