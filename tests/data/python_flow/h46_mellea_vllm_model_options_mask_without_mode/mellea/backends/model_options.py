# Imitates generative-computing/mellea mellea/backends/model_options.py, trimmed.
"""Common ModelOptions for Backend Generation."""

from typing import Any


class ModelOption:
    """A type that wraps around model options."""

    TOOLS = "@@@tools@@@"
    MAX_NEW_TOKENS = "@@@max_new_tokens@@@"
    SYSTEM_PROMPT = "@@@system_prompt@@@"
    TEMPERATURE = "@@@temperature@@@"
    SEED = "@@@seed@@@"
    STREAM = "@@@stream@@@"

    @staticmethod
    def replace_keys(options: dict, from_to: dict[str, str]) -> dict[str, Any]:
        """Returns a new dict with the keys in `options` replaced with the corresponding value for that key in `from_to`.

        If a key in `from_to` already exists in `options`, the existing value takes precedence.
        """
        new_options = dict(options)
        for old_key, new_key in from_to.items():
            if old_key in new_options:
                value = new_options.pop(old_key)
                if new_key not in new_options:
                    new_options[new_key] = value
        return new_options

    @staticmethod
    def remove_special_keys(model_options: dict[str, Any]) -> dict[str, Any]:
        """Removes all sentinel-valued keys (i.e., those that start with @@@)."""
        return {k: v for k, v in model_options.items() if not k.startswith("@@@")}

    @staticmethod
    def merge_model_options(
        persistent_opts: dict[str, Any], overwrite_opts: dict[str, Any] | None
    ) -> dict[str, Any]:
        """Creates a new dict that contains all keys and values from persistent opts and overwrite opts."""
        new_options = dict(persistent_opts)
        if overwrite_opts is not None:
            for k, v in overwrite_opts.items():
                new_options[k] = v
        return new_options
