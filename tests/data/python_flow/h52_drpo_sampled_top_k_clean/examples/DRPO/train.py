# Imitates maitrix-org/llm-reasoners examples/DRPO/train.py (fire main, the base model on vLLM with replay).
import os
import sys
from typing import Type, Optional
import fire
import logging
import json

from reasoners import LanguageModel as Model, SearchAlgorithm, Reasoner
from reasoners.algorithm import BeamSearch

from models import VLLMModel, OpenAIChatModel

from world_model import PromptAlignWorldModel

#TODO: update GPU numbers if running out of CUDA memory.
os.environ["CUDA_VISIBLE_DEVICES"]= "1,2,3,4"


def run_prompt_align(base_model: Model,
                initial_system_prompt: str,
                search_algo: Type[SearchAlgorithm] = BeamSearch,
                depth: int = 16,
                beam_size: int = 5,
                log_dir: Optional[str] = None,
                disable_log: bool = False,
                data_dir: str = None,
                is_GPT = False,
                **search_algo_params):
    if not disable_log:
        os.makedirs(log_dir, exist_ok=True)
        with open(os.path.join(log_dir, 'args.txt'), 'w') as f:
            print(sys.argv, file=f)

    search_algo_params |= {
        'beam_size': beam_size,
        'max_depth': depth,
        'reward_aggregator': 'mean' if beam_size > 1 else 'last',
    }
    world_model = PromptAlignWorldModel(
        base_model=base_model,
        initial_system_prompt=initial_system_prompt,
        depth=depth,
        is_GPT=is_GPT,
    )
    search_algo = search_algo(**search_algo_params)
    reasoner = Reasoner(world_model=world_model, search_config=None, search_algo=search_algo)

    with open(os.path.join(data_dir, 'lima_subsample_train.json'), 'r') as f:
        lima_data = json.load(f)
    lima_data = [dat['query'] for dat in lima_data]

    algo_output = reasoner(lima_data)
    logging.info(algo_output)


def main(
    base_model_name: str = 'mistralai/Mistral-7B-v0.1',
    base_model_family: str = 'mistral',
    initial_system_prompt: str = "You are a helpful assistant.",
    depth: int = 20,
    beam_size: int = 2,
    log_dir: Optional[str] = "logs/mistral-7b-chain",       
    disable_log: bool = False,
    base_model_download_dir = "./tmp",
    data_dir = './data',
    is_GPT = False,
    **kwargs
):
    if base_model_family.lower() == 'mistral':
        base_model = VLLMModel(
            model_name=base_model_name,
            download_dir=base_model_download_dir,
            gpu_memory_utilization=0.9,
            num_gpus=4,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
            )
    elif base_model_family.lower() == 'llama':
        base_model = VLLMModel(model_name=base_model_name, download_dir=base_model_download_dir, gpu_memory_utilization=0.5)
    elif base_model_family.lower() == 'gpt':
        is_GPT = True
        base_model = OpenAIChatModel(model_name=base_model_name)

    run_prompt_align(
        base_model=base_model,
        initial_system_prompt=initial_system_prompt,
        depth=depth,
        beam_size=beam_size,
        log_dir=log_dir,
        disable_log=disable_log,
        data_dir=data_dir,
        is_GPT=is_GPT,
        **kwargs
    )

if __name__ == '__main__':
    fire.Fire(main)
