from tbe.common.platform import get_soc_spec, set_current_compile_soc_info  # noqa: F401
