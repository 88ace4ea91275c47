# Imitates maitrix-org/llm-reasoners examples/DRPO/world_model.py (trimmed to the base model's output).
from typing import NamedTuple
from reasoners import WorldModel, LanguageModel as Model
import logging


class SubResult(NamedTuple):
    system_prompt: str
    query: str
    output: str

PromptAlignState = list[SubResult]
PromptAlignAction = (bool,str)
PromptAlignExample = list


class PromptAlignWorldModel(WorldModel[PromptAlignState, PromptAlignAction, PromptAlignExample]):
    def __init__(self,
                 base_model: Model,
                 initial_system_prompt: str,
                 depth: int = 10,
                 is_GPT = False,
    ):
        self.base_model = base_model
        self.initial_system_prompt = initial_system_prompt
        self.depth = depth
        self.is_GPT = is_GPT

    def init_state(self) -> PromptAlignState:
        return []

    def step(self, state: PromptAlignState, action: PromptAlignAction):
        _, prompt = action
        query = self.example[len(state)]
        output = self._generate_output(query, prompt)
        return state + [SubResult(prompt, query, output)], {}

    def is_terminal(self, state: PromptAlignState) -> bool:
        return len(state) >= self.depth

    def _generate_output(self, query, prompt):
        system_prompt = f"# instructions\n\n{prompt}\n\n"
        user_prompt = f"# Query:\n{query}\n\n# Answer:\n<START>"
        full_prompt = system_prompt + user_prompt
        logging.debug(full_prompt)

        if not self.is_GPT:
            output = self.base_model.generate(
                prompts=full_prompt, 
                temperature=0, top_p=1, max_new_tokens=2048, stop=["<END>", "<END", "<|eot_id|>"]).strip()  # expect: RPL101
        else:
            output = self.base_model.generate(
                system_prompt = system_prompt,
                user_prompt=user_prompt, 
                temperature=0, top_p=1, max_new_tokens=2048, stop=["<END>", "<END", "<|eot_id|>"]).strip()
        
        logging.info(output)
        return output
