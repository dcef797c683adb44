# Fails when a file of lib/<layer>/ includes a header of a layer that is not below its own.
# Run by the lance_layering target (CMakeLists.txt), which passes:
#   LIB_DIR     the lib/ folder
#   LAYERS      the layers, comma-separated, lowest first; a layer may be a subfolder of
#               another ("io/remote"), whose files then belong to it and not to the outer one
#   DEPS_<l>    the layers layer <l> links directly, comma-separated ('/' in <l> written '_')
# A layer may include its own headers and those of every layer it reaches through DEPS.

string(REPLACE "," ";" layers "${LAYERS}")

# Transitive closure of the direct dependencies, per layer (layers are listed lowest first,
# so every dependency's closure is known when a layer is reached).
foreach(layer ${layers})
  string(REPLACE "/" "_" id ${layer})
  string(REPLACE "," ";" direct "${DEPS_${id}}")
  set(reach_${id} ${layer})
  foreach(dep ${direct})
    string(REPLACE "/" "_" dep_id ${dep})
    list(APPEND reach_${id} ${reach_${dep_id}})
  endforeach()
  list(REMOVE_DUPLICATES reach_${id})
endforeach()

# The layer a path under lib/ ("io/remote/uri.h", "dataset/x.cpp") belongs to: its longest
# layer prefix, or "" for none.
function(owning_layer path out)
  set(best "")
  foreach(l ${layers})
    string(LENGTH "${l}" n)
    string(LENGTH "${best}" nb)
    if(path MATCHES "^${l}/" AND n GREATER nb)
      set(best ${l})
    endif()
  endforeach()
  set(${out} "${best}" PARENT_SCOPE)
endfunction()

set(violations "")
foreach(layer ${layers})
  string(REPLACE "/" "_" id ${layer})
  file(GLOB_RECURSE files "${LIB_DIR}/${layer}/*.h" "${LIB_DIR}/${layer}/*.cpp")
  foreach(f ${files})
    file(RELATIVE_PATH rel "${LIB_DIR}" "${f}")
    owning_layer("${rel}" own)
    if(NOT own STREQUAL layer)
      continue()  # a file of a layer in a subfolder: checked as that layer's
    endif()
    file(STRINGS "${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"[a-z0-9_]+/")
    foreach(line ${includes})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]+)\".*$" "\\1" header "${line}")
      owning_layer("${header}" target)
      if(target STREQUAL "")
        continue()  # not a layer folder (e.g. a generated header's directory)
      endif()
      list(FIND reach_${id} "${target}" allowed)
      if(allowed EQUAL -1)
        string(APPEND violations "  lib/${rel}: ${line} (layer ${layer} may include: ${reach_${id}})\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "layering violated (CMakeLists.txt LANCE_LAYER_DEPS_*):\n${violations}")
endif()
