# Runs at install time (install(SCRIPT)): lays the prefix out as CANN's toolkit is laid out, so
# applications written for CANN find OpenCANN unchanged. The real files stay in include/, lib/
# and bin/ (where the CMake package points); CANN's paths are relative symlinks to them:
#   runtime/include, compiler/include -> include   runtime/lib64 -> lib, lib/stub/ (the "stub" libraries)
#   lib64 -> lib                       compiler/lib64, compiler/tikcpp/tikcfw/interface
#   python/site-packages -> lib/python3/dist-packages
#   opp/vendors/ (custom operator packages), x86_64-linux/ (the per-arch view)
# and set_env.sh at the top exports what CANN's exports.
set(P "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")

function(oc_link target name)
  get_filename_component(dir "${P}/${name}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  if(IS_SYMLINK "${P}/${name}" OR EXISTS "${P}/${name}")
    file(REMOVE "${P}/${name}")
  endif()
  file(CREATE_LINK "${target}" "${P}/${name}" SYMBOLIC)
  message(STATUS "Linking: ${P}/${name} -> ${target}")
endfunction()

oc_link(../include runtime/include)
# The single-op compile samples add compiler/include (acl_op_compiler.h, graph/, register/).
oc_link(../include compiler/include)
# CANN 5's acllib/ paths, which older samples and ais_bench's C++ interface still name.
oc_link(../include acllib/include)
oc_link(../lib acllib/lib64)
oc_link(../lib runtime/lib64)
oc_link(lib lib64)
oc_link(../lib compiler/lib64)
oc_link(../../../include compiler/tikcpp/tikcfw/interface)
oc_link(../lib/python3/dist-packages python/site-packages)
foreach(part runtime lib64 include bin)
  oc_link(../${part} x86_64-linux/${part})
endforeach()
oc_link(../compiler/tikcpp x86_64-linux/tikcpp)
oc_link(../compiler/tikcpp tools/tikcpp)
# ccec and bisheng where CANN's CMake templates and scripts look for the compiler.
oc_link(../../bin compiler/ccec_compiler/bin)
oc_link(../compiler/ccec_compiler x86_64-linux/ccec_compiler)
oc_link(../../compiler/ccec_compiler toolkit/tools/ccec_compiler)
oc_link(../../compiler/ccec_compiler tools/ccec_compiler)
# op_build where older templates look for it (tools/opbuild).
oc_link(../toolkit/tools/opbuild tools/opbuild)
# The platform description files (<SoC>.ini) where CANN's tools and applications look.
oc_link(../data compiler/data)
oc_link(../data x86_64-linux/data)
file(MAKE_DIRECTORY "${P}/opp/vendors" "${P}/opp/built-in")

# lib/stub: what NPU_HOST_LIB names. The libraries applications link have stand-alone stubs
# (installed there by CMake); the others are linked to the libraries themselves.
file(GLOB libs RELATIVE "${P}/lib" "${P}/lib/*.so")
foreach(lib IN LISTS libs)
  if(NOT EXISTS "${P}/lib/stub/${lib}" OR IS_SYMLINK "${P}/lib/stub/${lib}")
    oc_link(../${lib} lib/stub/${lib})
  endif()
endforeach()

file(WRITE "${P}/set_env.sh" [=[
# OpenCANN toolkit environment, as CANN's set_env.sh:   source <prefix>/set_env.sh
if [ -n "${BASH_SOURCE:-}" ]; then _oc_home="${BASH_SOURCE[0]}";
elif [ -n "${ZSH_VERSION:-}" ]; then _oc_home="${(%):-%x}";
else _oc_home="$0"; fi
_oc_home="$(cd "$(dirname "$_oc_home")" && pwd)"
export ASCEND_TOOLKIT_HOME="$_oc_home"
export ASCEND_HOME_PATH="$_oc_home"
export ASCEND_OPP_PATH="$_oc_home/opp"
export ASCEND_AICPU_PATH="$_oc_home"
export TOOLCHAIN_HOME="$_oc_home/toolkit"
export LD_LIBRARY_PATH="$_oc_home/lib64:$_oc_home/lib64/plugin/opskernel:$_oc_home/lib64/plugin/nnengine${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONPATH="$_oc_home/python/site-packages${PYTHONPATH:+:$PYTHONPATH}"
export PATH="$_oc_home/bin${PATH:+:$PATH}"
unset _oc_home
]=])
message(STATUS "Installing: ${P}/set_env.sh")
# Older CANN kept the environment script as bin/setenv.bash; some projects still source it.
file(WRITE "${P}/bin/setenv.bash" [=[
# OpenCANN: the older name of <prefix>/set_env.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)/set_env.sh"
]=])
