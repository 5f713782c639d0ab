from tbe.common.utils.para_check import *  # noqa: F401,F403
from tbe.common.utils.para_check import check_op_params  # noqa: F401
