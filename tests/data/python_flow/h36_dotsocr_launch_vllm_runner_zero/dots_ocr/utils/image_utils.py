# Imitates rednote-hilab/dots.ocr dots_ocr/utils/image_utils.py (trimmed to PILimage_to_base64).
import base64
from io import BytesIO


def PILimage_to_base64(image, format='PNG'):
    buffered = BytesIO()
    image.save(buffered, format=format)
    img_str = base64.b64encode(buffered.getvalue()).decode()
    return f"data:image/{format.lower()};base64,{img_str}"
