# CANN's kernel-launch CMake module (compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake), as
# OpenCANN provides it: the samples' npu_lib.cmake includes it, then
#   ascendc_library(<target> STATIC|SHARED <kernel sources>)   kernels + aclrtlaunch_<k>.h
#   ascendc_compile_definitions / ascendc_include_directories / ascendc_compile_options
# and host code links host_intf_pub. The kernels run in OpenCANN's Ascend C emulation on
# AscendCL streams (see docs/ascendc.md).
get_filename_component(_oc_ascendc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
find_package(OpenCANN REQUIRED CONFIG PATHS "${_oc_ascendc_prefix}/lib/cmake/OpenCANN"
             NO_DEFAULT_PATH)

# Host code of kernel-launch programs: the toolkit's headers, and its libraries by CANN's
# names (ascendcl, runtime, register, platform, tiling_api, ascendalog, ...).
if(NOT TARGET host_intf_pub)
  add_library(host_intf_pub INTERFACE)
  target_include_directories(host_intf_pub INTERFACE "${_oc_ascendc_prefix}/include")
  target_link_directories(host_intf_pub INTERFACE "${_oc_ascendc_prefix}/lib")
  target_link_libraries(host_intf_pub INTERFACE OpenCANN::ascendcl)
endif()

# ascendc_library is OpenCANN's (OpenCANNConfig.cmake); under this module it also installs the
# library to <install prefix>/lib, as CANN's does (the samples' run.sh run it from there).
set(OC_ASCENDC_INSTALL_LIBRARIES ON)

function(ascendc_compile_definitions target scope)
  target_compile_definitions(${target} ${scope} ${ARGN})
endfunction()
function(ascendc_include_directories target scope)
  target_include_directories(${target} ${scope} ${ARGN})
endfunction()
function(ascendc_compile_options target scope)
  # Options for CANN's device compiler (--cce-*, -mllvm) do not reach the host compiler.
  set(options "")
  set(skip_next FALSE)
  foreach(opt IN LISTS ARGN)
    if(skip_next)
      set(skip_next FALSE)
    elseif(opt STREQUAL "-mllvm")
      set(skip_next TRUE)
    elseif(NOT opt MATCHES "^--cce-")
      list(APPEND options ${opt})
    endif()
  endforeach()
  target_compile_options(${target} ${scope} ${options})
endfunction()

function(ascendc_fatbin_library)
  message(FATAL_ERROR "ascendc_fatbin_library: kernel binaries for aclrtBinaryLoad are NPU "
                      "machine code, which OpenCANN does not produce; build the kernels with "
                      "ascendc_library and launch them with ACLRT_LAUNCH_KERNEL or <<<>>>")
endfunction()
