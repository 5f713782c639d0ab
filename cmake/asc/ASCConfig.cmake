# find_package(ASC): CANN's package for Ascend C as a CMake language. A project written for it
#   find_package(ASC REQUIRED)
#   project(app LANGUAGES ASC CXX)
#   add_executable(app kernel_and_host.asc)
# builds here with OpenCANN's bisheng: .asc sources (kernels, their <<<>>> launches and the
# host code in one file) compile for the CPU emulation, and ASC targets link the emulation
# and AscendCL. Found through <prefix>/bin on PATH (set_env.sh) or CMAKE_PREFIX_PATH.
if(_OC_ASC_PACKAGE_LOADED)
  return()
endif()
set(_OC_ASC_PACKAGE_LOADED TRUE)

get_filename_component(OC_ASC_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT DEFINED ASCEND_CANN_PACKAGE_PATH)
  set(ASCEND_CANN_PACKAGE_PATH "${OC_ASC_PREFIX}")
endif()
set(ASC_FOUND TRUE)
set(ASC_VERSION 9.0.0)  # the CANN release whose interface this follows

# The language: CMakeDetermineASCCompiler.cmake and friends.
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/modules")

# Projects link the toolkit's host libraries by bare name (tiling_api, register, platform,
# graph_base, unified_dlog, c_sec, ...); they are in <prefix>/lib.
link_directories("${OC_ASC_PREFIX}/lib")

set(_OC_ASC_LIB_TYPES SHARED STATIC)

# ascendc_library(<target> SHARED|STATIC <sources>): kernels (with their launch functions)
# as a library; host code calls them through <<<>>> or aclrtlaunch_* as on the NPU.
function(ascendc_library target type)
  if(NOT type IN_LIST _OC_ASC_LIB_TYPES)
    message(FATAL_ERROR "ascendc_library(${target} ${type} ...): the type is SHARED or STATIC")
  endif()
  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE ASC)
  add_library(${target} ${type} ${ARGN})
  target_include_directories(${target} INTERFACE "${OC_ASC_PREFIX}/include")
  target_link_directories(${target} INTERFACE "${OC_ASC_PREFIX}/lib")
  target_link_libraries(${target} INTERFACE ascendcl ascendc_emu c_sec)
  include(GNUInstallDirs)
  install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

function(ascendc_fatbin_library target)
  message(FATAL_ERROR
          "ascendc_fatbin_library(${target} ...): asks for NPU machine code (a device .o for "
          "aclrtBinaryLoad); OpenCANN compiles Ascend C for its CPU emulation and has no NPU "
          "code generator. Use ascendc_library or add_executable with the .asc sources.")
endfunction()

function(ascendc_compile_definitions target scope)
  target_compile_definitions(${target} ${scope} ${ARGN})
endfunction()

function(ascendc_include_directories target scope)
  target_include_directories(${target} ${scope} ${ARGN})
endfunction()

# Kernel options, then -forward-options-to-host-compiler and host options: one compile here
# serves both sides, so both lists apply.
function(ascendc_compile_options target scope)
  list(REMOVE_ITEM ARGN -forward-options-to-host-compiler)
  if(ARGN)
    target_compile_options(${target} ${scope} ${ARGN})
  endif()
endfunction()

# The operator-package functions (npu_op_package and the rest): ASCOpPackage.cmake.
include("${CMAKE_CURRENT_LIST_DIR}/ASCOpPackage.cmake")
