# Packs the staged package (STAGE/vendors/VENDOR) into RUN: the installer script, then a
# gzip'd tar of vendors/ (run by npu_op_package's `package` target).
file(READ "${INSTALLER}" script)
string(REPLACE "__VENDOR__" "${VENDOR}" script "${script}")
file(WRITE "${RUN}.tmp" "${script}")
execute_process(COMMAND tar -C "${STAGE}" -czf "${RUN}.tgz" vendors RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "cannot pack ${STAGE}")
endif()
execute_process(COMMAND sh -c "cat '${RUN}.tgz' >> '${RUN}.tmp' && chmod +x '${RUN}.tmp' && mv '${RUN}.tmp' '${RUN}' && rm -f '${RUN}.tgz'"
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "cannot write ${RUN}")
endif()
message(STATUS "package: ${RUN}  (install: ${RUN} --install-path=<dir>, or into $ASCEND_OPP_PATH)")
