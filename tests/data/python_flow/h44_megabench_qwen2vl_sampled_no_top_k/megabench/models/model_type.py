# MEGA-Bench's megabench/models/model_type.py, trimmed to the OpenAI default and the Qwen2-VL entries.
import dataclasses
import functools
import os
from enum import Enum

from utils import lazy_import


@dataclasses.dataclass(frozen=True)
class ModelClassContainer:
    module_name: str
    class_name: str

    @functools.cached_property
    def impl(self):
        return lazy_import(self.module_name, self.class_name)()


class ModelClass(ModelClassContainer, Enum):
    OpenAI = ("models.openai", "OpenAI")
    Qwen2VL = ("models.qwen2_vl", "Qwen2VL")


@dataclasses.dataclass(frozen=True)
class MaxImagesPerApiCallConfig:
    max_num_image: int
    total_demo_video_frames: int


@dataclasses.dataclass(frozen=True)
class ModelTypeContainer:
    key: str
    model_name: str
    api_key: str
    constructor: type
    max_images_per_api_call: MaxImagesPerApiCallConfig = dataclasses.field(default=MaxImagesPerApiCallConfig(64, 8))
    system_message: str | None = dataclasses.field(default=None)


class ModelType(ModelTypeContainer, Enum):
    GPT_4O_MINI = ("gpt_mini", "gpt-4o-mini", "OPENAI_API_KEY", ModelClass.OpenAI)
    QWEN2_VL_7B = (
        "Qwen2_VL_7B",
        "Qwen/Qwen2-VL-7B-Instruct",
        "",
        ModelClass.Qwen2VL,
        MaxImagesPerApiCallConfig(max_num_image=18, total_demo_video_frames=2),
    )
    QWEN2_VL_2B = (
        "Qwen2_VL_2B",
        "Qwen/Qwen2-VL-2B-Instruct",
        "",
        ModelClass.Qwen2VL,
        MaxImagesPerApiCallConfig(max_num_image=16, total_demo_video_frames=2),
    )

    def get_model_instance(self, print_response, model_path=None, **kwargs):
        return self.constructor.impl(
            api_key=os.getenv(self.api_key),
            model=self.model_name if model_path is None else model_path,
            print_response=print_response,
            system_message=SYSTEM_MESSAGES.get(self),
            **dataclasses.asdict(self.max_images_per_api_call),
            **kwargs,
        )

    @staticmethod
    def from_string(s):
        try:
            return ModelType[s.upper()]
        except KeyError:
            raise ValueError(f"Invalid model type: {s}")


# Add potential system messages here
SYSTEM_MESSAGES = {}
