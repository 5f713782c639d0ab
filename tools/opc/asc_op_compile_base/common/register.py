"""register_operator and register_param_generalization, as impl.util.platform_adapter's."""
from impl.util.platform_adapter import tbe_register as _register

register_operator = _register.register_operator
register_param_generalization = _register.register_param_generalization
