import subprocess

import typer

from replayctl.config import ServerConfig

app = typer.Typer(help="Start and manage the rollout policy server.")


@app.command()
def serve(model: str = "Qwen/Qwen3-0.6B", port: int = 8000) -> None:
    config = ServerConfig(model=model, port=port)
    typer.echo(f"starting: {' '.join(config.to_argv())}")
    subprocess.run(config.to_argv(), check=True)


@app.command()
def show(model: str = "Qwen/Qwen3-0.6B") -> None:
    typer.echo(ServerConfig(model=model))


if __name__ == "__main__":
    app()
