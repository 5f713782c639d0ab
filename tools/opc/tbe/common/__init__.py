"""tbe.common: the platform, build configuration and parameter checks of an opc compile."""
