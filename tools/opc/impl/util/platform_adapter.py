"""tbe_register: records an operator function under its op type for opc."""


class _Register:
    def __init__(self):
        self.operators = {}
        self.generalizations = {}

    def register_operator(self, op_type, **_kw):
        def decorator(func):
            self.operators[op_type] = func
            return func
        return decorator

    def register_param_generalization(self, op_type):
        def decorator(func):
            self.generalizations[op_type] = func
            return func
        return decorator


tbe_register = _Register()
