# Imitates axolotl-ai-cloud/axolotl src/axolotl/cli/main.py: the click command collects its
# options into **cli_args (None when not given) and hands them to do_vllm_serve.
import click

from axo.cli.vllm_serve import do_vllm_serve


@click.group()
def cli():
    pass


@cli.command()
@click.option("--config", type=click.Path(), default="examples/qwen2-grpo.yaml", show_default=True)
@click.option("--tensor-parallel-size", type=int, default=None)
@click.option("--gpu-memory-utilization", type=float, default=None)
@click.option("--dtype", type=str, default=None)
@click.option("--enable-prefix-caching/--no-enable-prefix-caching", default=None)
@click.option("--batch-sharded-sampling/--no-batch-sharded-sampling", default=None)
def vllm_serve(config: str, **cli_args):
    do_vllm_serve(config, cli_args)


if __name__ == "__main__":
    cli()
