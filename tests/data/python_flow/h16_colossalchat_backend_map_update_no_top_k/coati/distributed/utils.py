# Imitates hpcaitech/ColossalAI applications/ColossalChat/coati/distributed/utils.py (update_by_default).
from typing import Any, Dict


def update_by_default(data: Dict[str, Any], default: Dict[str, Any]) -> Dict[str, Any]:
    data = data.copy()
    for k, v in default.items():
        if k not in data:
            data[k] = v
    return data
