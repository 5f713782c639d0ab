# tikicpulib: the package CANN's CPU-debug projects find (cmake/cpu_lib.cmake does
# find_package(tikicpulib) and links tikicpulib::<SOC_VERSION>), provided by OpenCANN's
# Ascend C emulation. Installed as <prefix>/lib/cmake/tikicpulib and, where CANN keeps it,
# <prefix>/tools/tikicpulib/lib/cmake/tikicpulib.
#
# tikicpulib::<soc> for a chip the emulation models (Ascend910B1..B4, any case) links
# OpenCANN::ascendc_emu and makes that chip the one the checks and the cost model use. For
# other chips the target exists so the project configures, and its sources fail to compile
# with a message naming the chip (OpenCANN does not model coupled-architecture chips).
get_filename_component(_tikicpu_dir "${CMAKE_CURRENT_LIST_FILE}" DIRECTORY)
if(EXISTS "${_tikicpu_dir}/../OpenCANN/OpenCANNConfig.cmake")
  set(_tikicpu_opencann "${_tikicpu_dir}/../OpenCANN")
else()
  get_filename_component(_tikicpu_opencann "${_tikicpu_dir}/../../../../../lib/cmake/OpenCANN"
                         ABSOLUTE)
endif()
# <prefix>/lib: CPU-debug projects link the host libraries by bare name (ascendcl,
# tiling_api, register, platform, ascendalog, ...) and rely on the tikicpulib targets for the
# directory they are in.
get_filename_component(_tikicpu_libdir "${_tikicpu_opencann}/../.." ABSOLUTE)
include(CMakeFindDependencyMacro)
find_dependency(OpenCANN CONFIG PATHS "${_tikicpu_opencann}" NO_DEFAULT_PATH)

set(_tikicpu_modelled Ascend910B1 Ascend910B2 Ascend910B3 Ascend910B4)
set(_tikicpu_other Ascend910A Ascend910B Ascend910ProA Ascend910PremiumA Ascend310P1
    Ascend310P3 Ascend310B1 Ascend910_9391 Ascend910_9392 Ascend910_9381 Ascend910_9382
    ascend910 ascend310p ascend910b ascend310b)
foreach(_soc IN LISTS _tikicpu_modelled)
  string(TOLOWER "${_soc}" _lower)
  foreach(_name IN ITEMS ${_soc} ${_lower})
    if(NOT TARGET tikicpulib::${_name})
      add_library(tikicpulib::${_name} INTERFACE IMPORTED)
      set_target_properties(tikicpulib::${_name} PROPERTIES
        INTERFACE_LINK_LIBRARIES OpenCANN::ascendc_emu
        INTERFACE_LINK_DIRECTORIES "${_tikicpu_libdir}"
        INTERFACE_COMPILE_DEFINITIONS "OCANN_TIKICPU_SOC=\"${_soc}\"")
    endif()
  endforeach()
endforeach()
foreach(_soc IN LISTS _tikicpu_other)
  if(NOT TARGET tikicpulib::${_soc})
    add_library(tikicpulib::${_soc} INTERFACE IMPORTED)
    set_target_properties(tikicpulib::${_soc} PROPERTIES
      INTERFACE_LINK_LIBRARIES OpenCANN::ascendc_emu
      INTERFACE_LINK_DIRECTORIES "${_tikicpu_libdir}"
      INTERFACE_COMPILE_DEFINITIONS "OCANN_TIKICPU_UNMODELLED_SOC=\"${_soc}\"")
  endif()
endforeach()
set(tikicpulib_FOUND TRUE)
unset(_tikicpu_dir)
unset(_tikicpu_opencann)
unset(_tikicpu_libdir)
