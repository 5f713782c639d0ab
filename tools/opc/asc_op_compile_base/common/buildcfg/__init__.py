from tbe.common.buildcfg import get_current_build_config, get_default_build_config  # noqa: F401
