# Imitates NVIDIA/NeMo-Curator nemo_curator/stages/video/caption/caption_generation.py (CaptionGenerationStage)
from dataclasses import dataclass

from nemo_curator.models.qwen_vl import QwenVL


@dataclass
class CaptionGenerationStage:
    model_dir: str = "models/"
    model_variant: str = "qwen"
    caption_batch_size: int = 16
    fp8: bool = False
    max_output_tokens: int = 512

    def setup(self):
        self.model = QwenVL(
            self.model_dir,
            self.model_variant,
            self.caption_batch_size,
            self.fp8,
            self.max_output_tokens,
        )
        self.model.setup()

    def process(self, videos):
        return self.model.generate(videos)


if __name__ == "__main__":
    stage = CaptionGenerationStage(model_dir="/models")
    stage.setup()
    stage.process([{"prompt": "Describe the clip.", "multi_modal_data": {}}])
