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
# The tikicpulib targets are GLOBAL (below), so what they link must be too.
foreach(_tikicpu_dep ascendc_emu ascendcl opregister ascend_runtime acl_op_compiler acl_dvpp
                     acl_dvpp_mpi opencann_omp_policy)
  if(TARGET OpenCANN::${_tikicpu_dep})
    get_target_property(_tikicpu_global OpenCANN::${_tikicpu_dep} IMPORTED_GLOBAL)
    if(NOT _tikicpu_global)
      set_target_properties(OpenCANN::${_tikicpu_dep} PROPERTIES IMPORTED_GLOBAL TRUE)
    endif()
  endif()
endforeach()

set(_tikicpu_modelled Ascend910B1 Ascend910B2 Ascend910B3 Ascend910B4)
set(_tikicpu_other Ascend910A Ascend910B Ascend910ProA Ascend910PremiumA Ascend310P1
    Ascend310P3 Ascend310B1 Ascend910_9391 Ascend910_9392 Ascend910_9381 Ascend910_9382
    ascend910 ascend310p ascend910b ascend310b)
# Each chip by its name, in lower case, and with a lower-case first letter (ascend910B1: the
# form older projects' CMake modules build from `ascend${SOC}`). GLOBAL: a project may find
# the package in one folder and link the target in another.
macro(_tikicpu_names soc out)
  string(TOLOWER "${soc}" _tikicpu_lower)
  string(SUBSTRING "${_tikicpu_lower}" 0 1 _tikicpu_first)
  string(SUBSTRING "${soc}" 1 -1 _tikicpu_rest)
  set(${out} ${soc} ${_tikicpu_lower} ${_tikicpu_first}${_tikicpu_rest})
  list(REMOVE_DUPLICATES ${out})
endmacro()
foreach(_soc IN LISTS _tikicpu_modelled)
  _tikicpu_names(${_soc} _names)
  foreach(_name IN LISTS _names)
    if(NOT TARGET tikicpulib::${_name})
      add_library(tikicpulib::${_name} INTERFACE IMPORTED GLOBAL)
      set_target_properties(tikicpulib::${_name} PROPERTIES
        INTERFACE_LINK_LIBRARIES OpenCANN::ascendc_emu
        INTERFACE_LINK_DIRECTORIES "${_tikicpu_libdir}"
        INTERFACE_COMPILE_DEFINITIONS "OCANN_TIKICPU_SOC=\"${_soc}\"")
    endif()
  endforeach()
endforeach()
foreach(_soc IN LISTS _tikicpu_other)
  _tikicpu_names(${_soc} _names)
  foreach(_name IN LISTS _names)
    if(NOT TARGET tikicpulib::${_name})
      add_library(tikicpulib::${_name} INTERFACE IMPORTED GLOBAL)
      set_target_properties(tikicpulib::${_name} PROPERTIES
        INTERFACE_LINK_LIBRARIES OpenCANN::ascendc_emu
        INTERFACE_LINK_DIRECTORIES "${_tikicpu_libdir}"
        INTERFACE_COMPILE_DEFINITIONS "OCANN_TIKICPU_UNMODELLED_SOC=\"${_soc}\"")
    endif()
  endforeach()
endforeach()
set(tikicpulib_FOUND TRUE)
unset(_tikicpu_dir)
unset(_tikicpu_opencann)
unset(_tikicpu_libdir)
