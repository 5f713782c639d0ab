# The compiler works when it answers --version (a full test compile needs the project's
# include paths, which come later).
execute_process(COMMAND "${CMAKE_ASC_COMPILER}" --version RESULT_VARIABLE _oc_asc_rc
                OUTPUT_QUIET ERROR_QUIET)
if(NOT _oc_asc_rc EQUAL 0)
  message(FATAL_ERROR "ASC: ${CMAKE_ASC_COMPILER} --version failed (${_oc_asc_rc})")
endif()
set(CMAKE_ASC_COMPILER_WORKS TRUE CACHE INTERNAL "")
unset(_oc_asc_rc)
