# Imitates opendatalab/MinerU demo/demo.py (vlm backend) with mineru/backend/vlm/vlm_analyze.py
import os
from pathlib import Path

from mineru_vl_utils import MinerULogitsProcessor

from mineru.backend.vlm.vlm_analyze import doc_analyze as vlm_doc_analyze


def parse_doc(path_list: list[Path], output_dir, backend="vllm-engine", server_url=None):
    for path in path_list:
        pdf_bytes = path.read_bytes()
        middle_json, infer_result = vlm_doc_analyze(
            pdf_bytes,
            backend=backend,
            server_url=server_url,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        logits_processors=[MinerULogitsProcessor],  # expect: RPL001
        )
        print(os.path.join(output_dir, path.stem), len(infer_result))


if __name__ == "__main__":
    __dir__ = os.path.dirname(os.path.abspath(__file__))
    pdf_files_dir = os.path.join(__dir__, "pdfs")
    output_dir = os.path.join(__dir__, "output")
    doc_path_list = sorted(Path(pdf_files_dir).glob("*.pdf"))
    parse_doc(doc_path_list, output_dir, backend="vllm-engine")
