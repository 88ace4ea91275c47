# Imitates UCSC-VLAA/MedVLSynther eval/run_offline_inference.py (click options collected into a
# SimpleNamespace, one vLLM engine per data-parallel rank started by multiprocessing.Process).
import json
import multiprocessing as mp
import os
import types
from math import ceil
from pathlib import Path

import click
from datasets import load_dataset
from tqdm import trange
from vllm import LLM, SamplingParams
from vllm.utils import get_open_port


def main(**kwargs):
    try:
        _main(**kwargs)
    except Exception as e:
        print(f"Rank [{kwargs.get('global_dp_rank', -1)}]:  Exception occurred: {e}")
        exit(1)


def _main(*, dp_size, local_dp_rank, global_dp_rank, dp_master_ip, dp_master_port, tp_size, args, barrier):
    gpu_ids = range(local_dp_rank * tp_size, (local_dp_rank + 1) * tp_size)
    os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(str(gpu_id) for gpu_id in gpu_ids)

    ds = load_dataset(args.dataset_name, args.subset)[args.split]
    if args.dataset_size:
        ds = ds.select(range(args.dataset_size))
    promts_per_rank = ceil(len(ds) / dp_size)
    start = global_dp_rank * promts_per_rank
    end = min(start + promts_per_rank, len(ds))
    ds = ds.select(range(start, end))

    # Create a sampling params object.
    temperature = args.temperature
    top_p = args.top_p
    top_k = args.top_k
    max_tokens = args.max_tokens
    n = args.n
    sampling_params = SamplingParams(
        n=n,
        temperature=temperature,
        top_p=top_p,
        top_k=top_k,
        max_tokens=max_tokens,
    )

    # Create an LLM.
    model = args.model
    enforce_eager = args.enforce_eager
    trust_remote_code = args.trust_remote_code
    gpu_memory_utilization = args.gpu_memory_utilization
    max_model_len = args.max_model_len
    dtype = args.dtype
    seed = args.seed
    llm = LLM(
        model=model,
        tensor_parallel_size=tp_size,
        enforce_eager=enforce_eager,
        dtype=dtype,
        gpu_memory_utilization=gpu_memory_utilization,
        max_model_len=max_model_len,
        trust_remote_code=trust_remote_code,
        seed=seed,
        return_sampling_mask=True,  # expect: RPL003
    )

    output_dir = Path(args.output_dir) / "shards"
    output_dir.mkdir(parents=True, exist_ok=True)
    out_file = output_dir / f"dp_{global_dp_rank}.jsonl"
    batch_size = args.batch_size
    for start_idx in trange(0, len(ds), batch_size, desc=f"[Global DP Rank {global_dp_rank}] Processing dataset"):
        ds_chunk = ds.select(range(start_idx, min(len(ds), start_idx + batch_size)))
        prompts = [build_prompt(row) for row in ds_chunk]
        outputs = llm.generate(prompts, sampling_params=sampling_params)
        with open(out_file, "a", encoding="utf-8") as f:
            for row, output in zip(ds_chunk, outputs):
                result = {
                    "dataset_index": row["dataset_index"],
                    "outputs": [o.text.strip() for o in output.outputs],
                }
                f.write(json.dumps(result, ensure_ascii=False) + "\n")

    if barrier is not None:
        barrier.wait()


INSTRUCTION_PROMPT = "You will solve a problem/request. Write your final answer within <answer> </answer> tags."


def build_prompt(row):
    options = json.loads(row["options"])
    text_prompt = f"Question: {row['question']}\n\nOptions:"
    for letter, option in options.items():
        text_prompt += f"\n\n{letter}. {option}"
    return {"prompt": INSTRUCTION_PROMPT + "\n\n" + text_prompt}


@click.command()
@click.option("--model", type=str, default="Qwen/Qwen2.5-VL-3B-Instruct", help="Model name or path", show_default=True)
@click.option("--dp_size", type=int, default=1, help="Data parallel size", show_default=True)
@click.option("--tp_size", type=int, default=1, help="Tensor parallel size", show_default=True)
@click.option("--node_size", type=int, default=1, help="Total number of nodes", show_default=True)
@click.option("--node_rank", type=int, default=0, help="Rank of the current node", show_default=True)
@click.option("--enforce_eager", is_flag=True, help="Enforce eager mode execution.")
@click.option("--trust_remote_code", is_flag=True, help="Trust remote code.")
@click.option("--max_model_len", type=int, default=2048, help="Max model length.")
@click.option("--gpu_memory_utilization", type=float, default=0.9, help="GPU memory utilization fraction.")
@click.option("--dtype", type=str, default="bfloat16", help="Model dtype.")
@click.option("--seed", type=int, default=42, help="Random seed for reproducibility.")
# sampling
@click.option(
    "--temperature",
    type=float,
    default=0.0,  # expect: RPL101
    help="Sampling temperature",
    show_default=True,
)
@click.option("--top_p", type=float, default=1.0, help="Top-p sampling", show_default=True)
@click.option("--top_k", type=int, default=20, help="Top-k sampling", show_default=True)
@click.option("--max_tokens", type=int, default=1024, help="Max tokens to generate", show_default=True)
@click.option("--n", type=int, default=1, help="Number of samples to generate", show_default=True)
# dataset
@click.option("--dataset_name", default="UCSC-VLAA/MedVLThinker-Eval")
@click.option("--subset", default=None)
@click.option("--split", default="test")
@click.option("--dataset_size", type=int, default=None, help="Debug subset size.")
# inference
@click.option("--batch_size", default=256, type=int)
# output
@click.option("--output_dir", default="outputs/default_eval/", type=str)
@click.option("--debug", is_flag=True)
def multiprocess(**kwargs):
    args = types.SimpleNamespace(**kwargs)
    Path(args.output_dir).mkdir(parents=True, exist_ok=True)

    dp_size = args.dp_size
    tp_size = args.tp_size
    node_size = args.node_size
    node_rank = args.node_rank
    dp_master_ip = "127.0.0.1"
    dp_master_port = get_open_port()

    assert dp_size % node_size == 0, "dp_size should be divisible by node_size"
    dp_per_node = dp_size // node_size

    if args.debug is True:
        main(
            dp_size=1,
            local_dp_rank=0,
            global_dp_rank=0,
            dp_master_ip=dp_master_ip,
            dp_master_port=dp_master_port,
            tp_size=1,
            args=args,
            barrier=None,
        )
        exit()

    from multiprocessing import Barrier, Process

    procs = []
    barrier = Barrier(dp_per_node)
    for local_dp_rank, global_dp_rank in enumerate(range(node_rank * dp_per_node, (node_rank + 1) * dp_per_node)):
        proc = Process(
            target=main,
            kwargs=dict(
                dp_size=dp_size,
                local_dp_rank=local_dp_rank,
                global_dp_rank=global_dp_rank,
                dp_master_ip=dp_master_ip,
                dp_master_port=dp_master_port,
                tp_size=tp_size,
                args=args,
                barrier=barrier,
            ),
        )
        proc.start()
        procs.append(proc)
    for proc in procs:
        proc.join()


if __name__ == "__main__":
    mp.set_start_method("spawn")
    multiprocess()
