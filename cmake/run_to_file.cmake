# Runs BIN with ARGS (comma-separated) and writes its standard output to OUT; fails on a
# non-zero exit, leaving no OUT behind. Usage:
#   cmake -DBIN=build/lance-cli -DARGS=completions,bash -DOUT=build/completions/lance-cli -P cmake/run_to_file.cmake
string(REPLACE "," ";" args "${ARGS}")
get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
execute_process(COMMAND "${BIN}" ${args} OUTPUT_FILE "${OUT}.tmp" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE "${OUT}.tmp")
  message(FATAL_ERROR "${BIN} ${args}: exit ${rc}")
endif()
file(RENAME "${OUT}.tmp" "${OUT}")
