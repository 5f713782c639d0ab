"""check_op_params: checks an operator function's arguments against its declaration
(REQUIRED_INPUT, OPTION_ATTR_INT, ..., KERNEL_NAME), as CANN's decorator does."""
import functools

REQUIRED_INPUT, OPTION_INPUT, DYNAMIC_INPUT = "required_input", "option_input", "dynamic_input"
REQUIRED_OUTPUT, OPTION_OUTPUT, DYNAMIC_OUTPUT = "required_output", "option_output", "dynamic_output"
KERNEL_NAME = "kernel_name"
_ATTR_TYPES = ("BOOL", "INT", "FLOAT", "STR", "LIST_INT", "LIST_FLOAT", "LIST_BOOL", "LIST_LIST_INT", "TYPE",
               "LIST_STR", "DATA_TYPE", "LIST_TYPE")
for _kind in ("REQUIRED", "OPTION"):
    for _t in _ATTR_TYPES:
        globals()["%s_ATTR_%s" % (_kind, _t)] = "%s_attr_%s" % (_kind.lower(), _t.lower())


def _check_tensor(name, value, decl):
    if decl.startswith("required") and decl.endswith(("input", "output")):
        if not isinstance(value, dict):
            raise RuntimeError("%s: a required tensor must be a dict with shape, dtype and format, got %r"
                               % (name, value))
    if decl.startswith("dynamic") and not isinstance(value, (list, tuple)):
        raise RuntimeError("%s: a dynamic tensor must be a list of dicts, got %r" % (name, value))


def check_op_params(*decls, **_kw):
    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            import inspect
            bound = inspect.signature(func).bind_partial(*args, **kwargs)
            names = list(inspect.signature(func).parameters)
            for name, decl in zip(names, decls):
                if name in bound.arguments and isinstance(decl, str) and decl.endswith(("input", "output")):
                    _check_tensor(name, bound.arguments[name], decl)
            return func(*args, **kwargs)
        return wrapper
    return decorator
