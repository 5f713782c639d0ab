"""tbe.tikcpp: compile_op and its companions, which generated Ascend C operator wrappers call."""
from tbe.tikcpp.compile_op import (  # noqa: F401
    AscendCLogLevel, CommonUtility, OpInfo, check_op_cap, compile_op, generalize_op_params, get_code_channel,
    replay_op)
