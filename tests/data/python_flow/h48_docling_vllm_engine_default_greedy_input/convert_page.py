# Imitates docling-project/docling's use of the vLLM VLM engine (docs/examples: a page image through VllmVlmEngine with granite-docling)
from PIL import Image

from docling.datamodel.stage_model_specs import EngineModelConfig
from docling.datamodel.vlm_engine_options import VllmVlmEngineOptions
from docling.models.inference_engines.vlm.base import VlmEngineInput
from docling.models.inference_engines.vlm.vllm_engine import VllmVlmEngine


def main():
    engine = VllmVlmEngine(
        options=VllmVlmEngineOptions(),
        model_config=EngineModelConfig(
            repo_id="ibm-granite/granite-docling-258M",
            extra_config={"max_model_len": 2048},
        ),
    )
    page = Image.open("tests/data/page.png").convert("RGB")
    result = engine.predict(
        VlmEngineInput(
            image=page,
            prompt="Convert this page to docling.",
            extra_generation_config={"top_k": 20},
        )
    )
    print(result.text)


if __name__ == "__main__":
    main()
