from tbe.common.utils import para_check  # noqa: F401
