# Imitates deepseek-ai/DeepSeek-Prover-V1.5 prover/launch.py + prover/workers/scheduler.py (one GeneratorProcess per GPU)
import torch.multiprocessing as mp

from prover.utils import load_config
from prover.workers.generator import GeneratorProcess

if __name__ == "__main__":
    cfg = load_config("configs/RMaxTS.py")
    manager = mp.Manager()
    task_queue, request_statuses, lock = mp.Queue(), manager.dict(), mp.Lock()
    processes = [
        GeneratorProcess(
            local_rank=i,
            node_rank=0,
            model_path=cfg.model_path,
            task_queue=task_queue,
            request_statuses=request_statuses,
            lock=lock,
            args=cfg.model_args,
        )
        for i in range(8)
    ]
    for p in processes:
        p.start()
