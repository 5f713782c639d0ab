# The CCE language: ccec from the toolkit named by ASCEND_HOME_PATH.
find_program(CMAKE_CCE_COMPILER NAMES ccec
  HINTS "$ENV{ASCEND_HOME_PATH}/x86_64-linux/ccec_compiler/bin"
        "$ENV{ASCEND_HOME_PATH}/compiler/ccec_compiler/bin" DOC "CCE compiler")
configure_file(${CMAKE_CURRENT_LIST_DIR}/CMakeCCECompiler.cmake.in
  ${CMAKE_PLATFORM_INFO_DIR}/CMakeCCECompiler.cmake @ONLY)
set(CMAKE_CCE_COMPILER_ENV_VAR "CCEC")
