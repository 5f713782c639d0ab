# The operator-package functions of find_package(ASC) (CANN's newer op-project template):
#   npu_op_package(<name> TYPE RUN [CONFIG INSTALL_PATH <dir>])
#   npu_op_code_gen(SRC <op_host sources> PACKAGE <name> OUT_DIR <autogen>)
#   npu_op_library(<target> ACLNN|GRAPH|TILING <sources>)
#   npu_op_kernel_sources(<target> KERNEL_DIR <dir> [OP_TYPE <op> COMPUTE_UNIT <units> OPTIONS <...>])
#   npu_op_kernel_library(<target> SRC_BASE <dir> TILING_LIBRARY <tiling target>)
#   npu_op_package_add(<name> LIBRARY <targets>)
# Targets: `binary` compiles the kernels (one binary per op and type combination, for each
# unit of ASCEND_COMPUTE_UNIT, through opc's compile_op for the emulation) and `package`
# packs <INSTALL_PATH>/custom_opp_<system>_<arch>.run, which installs the package into
# --install-path=<dir> or $ASCEND_OPP_PATH as vendors/<name>.

set(_OC_ASC_DIR "${CMAKE_CURRENT_LIST_DIR}")

macro(npu_op_package name)
  cmake_parse_arguments(_OC_PKG "" "TYPE" "CONFIG" ${ARGN})
  if(NOT "${_OC_PKG_TYPE}" STREQUAL "RUN")
    message(FATAL_ERROR "npu_op_package(${name} TYPE ${_OC_PKG_TYPE}): OpenCANN packs operator "
                        "packages as TYPE RUN (a .run installer)")
  endif()
  cmake_parse_arguments(_OC_PKG_CFG "" "INSTALL_PATH" "" ${_OC_PKG_CONFIG})
  if(NOT _OC_PKG_CFG_INSTALL_PATH)
    set(_OC_PKG_CFG_INSTALL_PATH "${CMAKE_BINARY_DIR}")
  endif()
  if(NOT DEFINED ASCEND_COMPUTE_UNIT)
    message(FATAL_ERROR "npu_op_package: ASCEND_COMPUTE_UNIT is not set (CMakePresets.json)")
  endif()
  set(ASCEND_AUTOGEN_PATH "${CMAKE_BINARY_DIR}/autogen")
  file(MAKE_DIRECTORY "${ASCEND_AUTOGEN_PATH}")
  set_property(GLOBAL PROPERTY OC_OP_PACKAGE_NAME "${name}")
  set_property(GLOBAL PROPERTY OC_OP_PACKAGE_STAGE "${CMAKE_BINARY_DIR}/oc_package/vendors/${name}")
  if(NOT TARGET binary)
    add_custom_target(binary)
  endif()
  execute_process(COMMAND uname -m OUTPUT_VARIABLE _oc_arch OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(_oc_run "${_OC_PKG_CFG_INSTALL_PATH}/custom_opp_linux_${_oc_arch}.run")
  add_custom_target(package ALL
    COMMAND ${CMAKE_COMMAND} -E make_directory "${_OC_PKG_CFG_INSTALL_PATH}"
    COMMAND ${CMAKE_COMMAND} -DSTAGE=${CMAKE_BINARY_DIR}/oc_package -DVENDOR=${name}
            -DRUN=${_oc_run} -DINSTALLER=${_OC_ASC_DIR}/oc_op_install.sh
            -P ${_OC_ASC_DIR}/oc_op_pack.cmake
    COMMENT "Packing ${_oc_run}")
  add_dependencies(package binary)
endmacro()

# Compiles the op_host sources as CANN's template does and runs op_build on them: the aclnn
# sources, op_proto and aic-<unit>-ops-info.ini land in OUT_DIR at configure time.
function(npu_op_code_gen)
  cmake_parse_arguments(GEN "" "PACKAGE;OUT_DIR" "SRC" ${ARGN})
  file(MAKE_DIRECTORY "${GEN_OUT_DIR}")
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -fPIC -shared -std=c++17 ${GEN_SRC}
                          -I ${OC_ASC_PREFIX}/include -L ${OC_ASC_PREFIX}/lib -lexe_graph -lregister
                          -ltiling_api -o ${GEN_OUT_DIR}/libascend_all_ops.so
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "npu_op_code_gen: the op_host sources do not compile:\n${err}")
  endif()
  execute_process(COMMAND ${OC_ASC_PREFIX}/toolkit/tools/opbuild/op_build
                          ${GEN_OUT_DIR}/libascend_all_ops.so ${GEN_OUT_DIR}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "npu_op_code_gen: op_build failed:\n${out}${err}")
  endif()
endfunction()

function(npu_op_library target kind)
  set(names ACLNN cust_opapi GRAPH cust_opsproto_rt2.0 TILING cust_opmaster_rt2.0)
  list(FIND names "${kind}" at)
  if(at LESS 0)
    message(FATAL_ERROR "npu_op_library(${target} ${kind} ...): the kind is ACLNN, GRAPH or TILING")
  endif()
  math(EXPR at "${at} + 1")
  list(GET names ${at} output)
  add_library(${target} SHARED ${ARGN})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${output} OC_OP_LIBRARY_KIND ${kind})
  target_include_directories(${target} PRIVATE "${OC_ASC_PREFIX}/include" "${ASCEND_AUTOGEN_PATH}")
  target_link_directories(${target} PRIVATE "${OC_ASC_PREFIX}/lib")
  if(kind STREQUAL "ACLNN")
    target_link_libraries(${target} PRIVATE ascendcl nnopbase)
  else()
    target_link_libraries(${target} PRIVATE exe_graph register tiling_api)
  endif()
endfunction()

function(npu_op_kernel_sources target)
  cmake_parse_arguments(SRC "" "KERNEL_DIR;OP_TYPE;KERNEL_FILE" "COMPUTE_UNIT;OPTIONS" ${ARGN})
  get_filename_component(dir "${SRC_KERNEL_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set_property(GLOBAL PROPERTY OC_KERNEL_DIR_${target} "${dir}")
  if(SRC_OP_TYPE AND SRC_OPTIONS)
    string(REPLACE ";" " " opts "${SRC_OPTIONS}")
    set_property(GLOBAL APPEND PROPERTY OC_KERNEL_OPTIONS_${target} "${SRC_OP_TYPE}=${opts}")
  endif()
endfunction()

function(npu_op_kernel_library target)
  cmake_parse_arguments(LIB "" "SRC_BASE;TILING_LIBRARY" "" ${ARGN})
  get_property(dir GLOBAL PROPERTY OC_KERNEL_DIR_${target})
  if(NOT dir)
    set(dir "${LIB_SRC_BASE}")
  endif()
  get_property(options GLOBAL PROPERTY OC_KERNEL_OPTIONS_${target})
  get_property(stage GLOBAL PROPERTY OC_OP_PACKAGE_STAGE)
  find_program(_oc_python NAMES python3 REQUIRED)
  set(commands)
  foreach(unit IN LISTS ASCEND_COMPUTE_UNIT)
    list(APPEND commands COMMAND ${_oc_python} ${_OC_ASC_DIR}/oc_op_kernels.py
         --prefix ${OC_ASC_PREFIX} --ini ${ASCEND_AUTOGEN_PATH}/aic-${unit}-ops-info.ini
         --unit ${unit} --kernel-dir ${dir} --tiling-lib $<TARGET_FILE:${LIB_TILING_LIBRARY}>
         --out ${stage}/op_impl/ai_core/tbe/kernel "--options=${options}")
  endforeach()
  add_custom_target(${target} ${commands} VERBATIM)
  add_dependencies(${target} ${LIB_TILING_LIBRARY})
  add_dependencies(binary ${target})
endfunction()

function(npu_op_package_add name)
  cmake_parse_arguments(ADD "" "" "LIBRARY" ${ARGN})
  get_property(stage GLOBAL PROPERTY OC_OP_PACKAGE_STAGE)
  execute_process(COMMAND uname -m OUTPUT_VARIABLE arch OUTPUT_STRIP_TRAILING_WHITESPACE)
  foreach(lib IN LISTS ADD_LIBRARY)
    get_target_property(kind ${lib} OC_OP_LIBRARY_KIND)
    if(kind STREQUAL "ACLNN")
      set(dest "${stage}/op_api/lib")
      file(GLOB headers "${ASCEND_AUTOGEN_PATH}/aclnn_*.h")
      add_custom_command(TARGET ${lib} POST_BUILD
        COMMAND ${CMAKE_COMMAND} -E make_directory ${stage}/op_api/include
        COMMAND ${CMAKE_COMMAND} -E copy ${headers} ${stage}/op_api/include)
    elseif(kind STREQUAL "TILING")
      set(dest "${stage}/op_impl/ai_core/tbe/op_tiling/lib/linux/${arch}")
    elseif(kind STREQUAL "GRAPH")
      set(dest "${stage}/op_proto/lib/linux/${arch}")
    else()
      continue()  # kernel libraries write into the stage themselves (npu_op_kernel_library)
    endif()
    add_custom_command(TARGET ${lib} POST_BUILD
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dest}
      COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:${lib}> ${dest}/)
    add_dependencies(package ${lib})
  endforeach()
endfunction()

function(npu_op_device_tiling_library)
  message(FATAL_ERROR "npu_op_device_tiling_library: tiling on the device (tiling sink) is not "
                      "supported by OpenCANN; tiling runs on the host")
endfunction()
