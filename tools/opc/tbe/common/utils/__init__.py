"""tbe.common.utils: para_check, the parameter declarations of operator functions."""
from tbe.common.utils import para_check  # noqa: F401
