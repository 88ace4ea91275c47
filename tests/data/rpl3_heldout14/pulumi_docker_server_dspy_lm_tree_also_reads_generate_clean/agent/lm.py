"""Language models of the agent, built from settings.ini."""

import configparser
from pathlib import Path

import dspy

SETTINGS = configparser.ConfigParser()
SETTINGS.read(Path(__file__).with_name("settings.ini"))


def policy_lm() -> dspy.LM:
    section = SETTINGS["policy"]
    return dspy.LM(
        f"hosted_vllm/{section['model']}",
        api_base=section["api_base"],
        api_key="EMPTY",
        temperature=section.getfloat("temperature"),
        max_tokens=1024,
    )


def judge_lm() -> dspy.LM:
    return dspy.LM(f"openai/{SETTINGS['judge']['model']}")
