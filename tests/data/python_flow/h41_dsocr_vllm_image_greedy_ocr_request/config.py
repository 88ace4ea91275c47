# Imitates deepseek-ai/DeepSeek-OCR DeepSeek-OCR-master/DeepSeek-OCR-vllm/config.py (read with
# run_dpsk_ocr_image.py, the script that imports it).
# TODO: change modes
# Tiny: base_size = 512, image_size = 512, crop_mode = False
# Gundam: base_size = 1024, image_size = 640, crop_mode = True

BASE_SIZE = 1024
IMAGE_SIZE = 640
CROP_MODE = True
MIN_CROPS = 2
MAX_CROPS = 6  # max:9; If your GPU memory is small, it is recommended to set it to 6.
MAX_CONCURRENCY = 100  # If you have limited GPU memory, lower the concurrency count.
NUM_WORKERS = 64  # image pre-process (resize/padding) workers
SKIP_REPEAT = True
MODEL_PATH = 'deepseek-ai/DeepSeek-OCR'  # change to your model path

INPUT_PATH = ''
OUTPUT_PATH = ''

PROMPT = '<image>\n<|grounding|>Convert the document to markdown.'
# PROMPT = '<image>\nFree OCR.'
