"""Adapters for RL frameworks that start vLLM from their own configuration.

Each adapter turns what a framework reads (its flags, environment, config files) into the
vLLM engine settings it passes on, citing the framework source it follows. The model, argv
semantics and rules are shared and untouched: a setting carries the span of the framework's
own key, so findings land there; a default the framework adds carries the span of the key
that made it matter (usually the mask) and says so in its spelling.

Each framework is declared once, as an `Adapter` in `replaylint.framework_registry` (its
packages, entry points, finders and prefilter words); this package holds the code it names.
Shared by the adapters: `commands` (a command line found by `programs.split_launcher`, handed
to its framework's adapter or to vLLM's parser) and `views` (nested configuration values with
the spans of their keys). The adapters read files through the readers below them (`command`,
`toml_document`); the frontends that find framework files and commands sit above them.
"""
