import json
from pathlib import Path

TASKS = json.loads((Path(__file__).parent.parent / "configs" / "tasks.json").read_text())


def sampling_for(task: str) -> dict:
    return dict(TASKS[task])
