# Imitates OpenAutoCoder/Agentless agentless/fl/FL.py (LLMFL.localize: greedy sample first, then temperature 0.8)
import logging

from agentless.util.api_requests import create_chatgpt_config, request_chatgpt_engine


def localize(message, model_name, num_samples=4):
    logger = logging.getLogger(__name__)
    traj = []
    for i in range(num_samples):
        config = create_chatgpt_config(message=message, max_tokens=1024, temperature=0 if i == 0 else 0.8, batch_size=1, model=model_name)
        traj.append(request_chatgpt_engine(config, logger))
    return traj
