# MEGA-Bench's base model class (megabench/models/openai.py), trimmed to what Qwen2VL uses.
import base64
import mimetypes


class OpenAI:
    def __init__(
        self,
        api_key=None,
        model=None,
        query_data=None,
        resize=True,
        max_side=1000,
        print_response=False,
        max_num_image=None,
        system_message=None,
        total_demo_video_frames=4,
        **kwargs,
    ):
        self.api_key = api_key
        self.model = model
        self.query_data = query_data
        self.resize = resize
        self.max_side = max_side
        self.print_response = print_response
        self.max_num_image = max_num_image
        self.system_message = system_message
        self.total_demo_video_frames = total_demo_video_frames

    def encode_image(self, image_path):
        mime_type, _ = mimetypes.guess_type(image_path)
        with open(image_path, "rb") as f:
            return base64.b64encode(f.read()).decode("utf-8"), mime_type or "image/jpeg"

    def _set_sampling_config(self, query_idx):
        return False

    def prepare_context(self):
        return [{"type": "text", "text": self.query_data.get("global_description", "")}]

    def prepare_query_content(self, query_info):
        return [{"type": "text", "text": query_info.get("query_text", "")}]
