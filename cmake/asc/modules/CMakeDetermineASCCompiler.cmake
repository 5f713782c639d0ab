# The ASC language's compiler: OpenCANN's bisheng from the prefix this package came with.
find_program(CMAKE_ASC_COMPILER NAMES bisheng
             PATHS "${OC_ASC_PREFIX}/bin" "${OC_ASC_PREFIX}/x86_64-linux/ccec_compiler/bin"
             NO_DEFAULT_PATH)
find_program(CMAKE_ASC_COMPILER NAMES bisheng DOC "ASC (Ascend C) compiler")
if(NOT CMAKE_ASC_COMPILER)
  message(FATAL_ERROR "ASC: no bisheng under ${OC_ASC_PREFIX}/bin or on PATH")
endif()
mark_as_advanced(CMAKE_ASC_COMPILER)
set(CMAKE_ASC_SOURCE_FILE_EXTENSIONS asc)
set(CMAKE_ASC_OUTPUT_EXTENSION .o)
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
configure_file(${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in
               ${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake @ONLY)
