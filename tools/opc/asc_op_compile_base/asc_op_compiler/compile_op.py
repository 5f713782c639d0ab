from tbe.tikcpp.compile_op import *  # noqa: F401,F403
from tbe.tikcpp.compile_op import AscendCLogLevel, CommonUtility, compile_op  # noqa: F401
