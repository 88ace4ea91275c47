"""Adapters for RL frameworks that start vLLM from their own configuration.

Each adapter turns what a framework reads (its flags, environment, config files) into the
vLLM engine settings it passes on, citing the framework source it follows. The model, argv
semantics and rules are shared and untouched.
"""
