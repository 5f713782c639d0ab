"""OpenCANN's stand-in for CANN's tbe package: the part that operator packages' generated
Ascend C wrappers (op_impl/.../dynamic/<op>.py) import when opc compiles them. Kernels are
compiled for OpenCANN's Ascend C emulation (tbe/tikcpp/compile_op.py)."""
