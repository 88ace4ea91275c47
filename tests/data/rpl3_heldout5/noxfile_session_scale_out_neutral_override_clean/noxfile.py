import nox


@nox.session(python="3.12")
def serve(session: nox.Session) -> None:
    session.install("vllm==0.34.0")
    session.run(
        "vllm",
        "serve",
        "Qwen/Qwen2.5-7B-Instruct",
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
        "--override-generation-config",
        '{"repetition_penalty": 1.0, "top_k": 50}',
        external=True,
    )
