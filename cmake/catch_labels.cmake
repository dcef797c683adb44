# CTest labels and timeouts from Catch2 tags (Catch2 v2's catch_discover_tests gives neither).
#
#   lance_catch_labels(TARGET DEFAULT_TIMEOUT seconds [TIMEOUTS tag=seconds ...])
#
# After each build of TARGET (after catch_discover_tests' own step), cmake/catch_labels_run.cmake
# asks the binary for its tags and, per tag, for the names of its test cases, and writes a CTest
# include file that gives every discovered test its tags as LABELS (`ctest -L golden`,
# `ctest -LE s3`) and a TIMEOUT: the largest of its tags' TIMEOUTS, else DEFAULT_TIMEOUT.
# Call it after catch_discover_tests(TARGET ...), so the tests exist when the file is read.
function(lance_catch_labels target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DEFAULT_TIMEOUT" "TIMEOUTS")
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake")
  string(REPLACE ";" "," timeouts "${arg_TIMEOUTS}")
  add_custom_command(TARGET ${target} POST_BUILD
    BYPRODUCTS "${out}"
    COMMAND "${CMAKE_COMMAND}" -D "TEST_EXECUTABLE=$<TARGET_FILE:${target}>" -D "OUT=${out}"
            -D "DEFAULT_TIMEOUT=${arg_DEFAULT_TIMEOUT}" -D "TIMEOUTS=${timeouts}"
            -P "${CMAKE_CURRENT_SOURCE_DIR}/cmake/catch_labels_run.cmake"
    VERBATIM)
  set(include "${CMAKE_CURRENT_BINARY_DIR}/${target}_labels_include.cmake")
  file(WRITE "${include}" "if(EXISTS \"${out}\")\n  include(\"${out}\")\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include}")
endfunction()
