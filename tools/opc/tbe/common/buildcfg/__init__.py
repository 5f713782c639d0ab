"""The build configuration of an opc compile (enable_op_prebuild, enable_deterministic_mode)."""
from tbe.common import context


def get_current_build_config(key=None):
    cfg = context.get("build_config")
    return dict(cfg) if key is None else cfg.get(key)


def get_default_build_config(key=None):
    return get_current_build_config(key)


def set_current_build_config(key, value):
    context.get("build_config")[key] = value
