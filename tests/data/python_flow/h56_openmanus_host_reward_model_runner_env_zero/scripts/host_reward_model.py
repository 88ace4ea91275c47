#!/usr/bin/env python3
# Imitates OpenManus/OpenManus-RL scripts/host_reward_model.py
"""
VLLM Server for Reward Model
Hosts a reward model that evaluates agent trajectories based on cognitive modules.
"""

import argparse
import asyncio
import logging
import re
from typing import Any, Dict

import uvicorn
from fastapi import FastAPI, HTTPException
from pydantic import BaseModel
from vllm import AsyncEngineArgs, AsyncLLMEngine, SamplingParams

logging.basicConfig(level=logging.INFO)
logger = logging.getLogger(__name__)

app = FastAPI()

# Global engine variable
engine = None


class EvaluationRequest(BaseModel):
    """Request model for trajectory evaluation"""

    module_name: str  # planner, executor, reflection, memory_use
    trajectory: str
    task_description: str
    step_num: int
    failure_context: Dict[str, Any]


def build_evaluation_prompt(request: EvaluationRequest) -> str:
    return (
        f"TASK: {request.task_description}\n"
        f"Step {request.step_num} - {request.module_name}: {request.trajectory}\n"
        "OUTPUT FORMAT:\n<score>[0-5 integer]</score>\n<reasoning>[brief explanation]</reasoning>\n"
    )


@app.post("/evaluate")
async def evaluate_trajectory(request: EvaluationRequest):
    """Evaluate a trajectory step for a specific module"""
    if engine is None:
        raise HTTPException(status_code=503, detail="Model not loaded")

    prompt = build_evaluation_prompt(request)

    # Generate evaluation
    sampling_params = SamplingParams(
        temperature=0.7,
        top_k=20,
        max_tokens=256,
        stop=["</reasoning>"],
    )

    request_id = f"eval_{request.module_name}_{request.step_num}"
    final = None
    async for output in engine.generate(prompt, sampling_params, request_id):
        final = output
    score_match = re.search(r"<score>(\d+)</score>", final.outputs[0].text)
    score = int(score_match.group(1)) if score_match else 0
    return {"score": max(0, min(5, score)) / 5.0}


async def initialize_engine(model_path: str, gpu_memory_utilization: float = 0.3):
    """Initialize VLLM engine"""
    global engine

    engine_args = AsyncEngineArgs(
        model=model_path,
        trust_remote_code=True,
        gpu_memory_utilization=gpu_memory_utilization,
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    engine = AsyncLLMEngine.from_engine_args(engine_args)
    logger.info(f"Model loaded: {model_path}")


def main():
    parser = argparse.ArgumentParser(description="VLLM Reward Model Server")
    parser.add_argument("--model-path", type=str, required=True, help="Path to reward model")
    parser.add_argument("--host", type=str, default="0.0.0.0", help="Host address")
    parser.add_argument("--port", type=int, default=8100, help="Port number")
    parser.add_argument("--gpu-memory", type=float, default=0.3, help="GPU memory utilization")

    args = parser.parse_args()

    # Initialize engine
    asyncio.run(initialize_engine(args.model_path, args.gpu_memory))

    # Start server
    uvicorn.run(app, host=args.host, port=args.port)


if __name__ == "__main__":
    main()
