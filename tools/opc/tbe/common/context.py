"""The state of one opc compile, set by opc before it calls the operator's function."""

_STATE = {
    "soc_version": "Ascend910B3",
    "output": ".",
    "impl_mode": "",
    "param": None,  # the --input_param file's content (op_type, op_list)
    "build_config": {"enable_op_prebuild": False, "enable_deterministic_mode": 0},
}


def get(key, default=None):
    return _STATE.get(key, default)


def set_value(key, value):
    _STATE[key] = value
