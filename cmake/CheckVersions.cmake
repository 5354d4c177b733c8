# Fails unless every statement of Paleo's version agrees: VERSION (the CMake project's),
# core/base/version.h's kVersion, the npm workspace's package.json and its lock file. The npm
# package (web/build_package.mjs) takes version.h's when it is built.
file(STRINGS "${SOURCE_DIR}/core/base/version.h" line REGEX "kVersion = \"")
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" core_version "${line}")
if(NOT core_version STREQUAL VERSION)
  message(FATAL_ERROR "core/base/version.h says ${core_version}; the CMake project says ${VERSION}")
endif()
foreach(file package.json package-lock.json)
  file(READ "${SOURCE_DIR}/${file}" text)
  string(JSON stated GET "${text}" version)
  if(NOT stated STREQUAL VERSION)
    message(FATAL_ERROR "${file} says version ${stated}; core/base/version.h says ${VERSION}")
  endif()
endforeach()
message(STATUS "versions agree: ${VERSION}")
