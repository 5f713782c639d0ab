"""get_soc_spec: facts of the chip being compiled for, from OpenCANN's platform files
(data/platform_config/<SoC>.ini, written from its SoC table)."""
import configparser
import os
import re

from tbe.common import context

_SPEC_KEYS = {
    "CORE_NUM": ("SoCInfo", "ai_core_cnt"),
    "CUBE_CORE_CNT": ("SoCInfo", "cube_core_cnt"),
    "VECTOR_CORE_CNT": ("SoCInfo", "vector_core_cnt"),
    "UB_SIZE": ("AICoreSpec", "ub_size"),
    "L1_SIZE": ("AICoreSpec", "l1_size"),
    "L0A_SIZE": ("AICoreSpec", "l0_a_size"),
    "L0B_SIZE": ("AICoreSpec", "l0_b_size"),
    "L0C_SIZE": ("AICoreSpec", "l0_c_size"),
}


def set_current_compile_soc_info(soc_version, core_type="AiCore", aicore_num=None, l1_fusion=None):
    context.set_value("soc_version", soc_version)
    context.set_value("core_type", core_type)


def short_soc_version(soc):
    """Ascend910B3 -> Ascend910B, Ascend310P3 -> Ascend310P, Ascend910A -> Ascend910."""
    if re.fullmatch(r"Ascend910(A|ProA|ProB|PremiumA|B)?", soc) and not re.fullmatch(r"Ascend910B\d", soc):
        return "Ascend910"
    return re.sub(r"\d+$", "", soc)


def _platform_ini(soc):
    here = os.path.dirname(os.path.realpath(__file__))
    for up in ("../../../../../../data", "../../../../../data", "../../../../data", "../../../data"):
        path = os.path.normpath(os.path.join(here, up, "platform_config", soc + ".ini"))
        if os.path.isfile(path):
            return path
    home = os.environ.get("ASCEND_HOME_PATH", "")
    path = os.path.join(home, "data", "platform_config", soc + ".ini")
    return path if os.path.isfile(path) else None


def get_soc_spec(key):
    soc = context.get("soc_version")
    if key in ("SOC_VERSION", "FULL_SOC_VERSION"):
        return soc
    if key == "SHORT_SOC_VERSION":
        return short_soc_version(soc)
    if key == "CORE_TYPE":
        return context.get("core_type", "AiCore")
    ini = _platform_ini(soc)
    if ini is None:
        raise RuntimeError("get_soc_spec(%s): no platform file for %s" % (key, soc))
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read(ini)
    section, name = _SPEC_KEYS.get(key, (None, key.lower()))
    sections = [section] if section else parser.sections()
    for sec in sections:
        if parser.has_section(sec) and parser.has_option(sec, name):
            value = parser.get(sec, name)
            return int(value) if value.isdigit() else value
    raise RuntimeError("get_soc_spec(%s): %s's platform file has no such fact" % (key, soc))
