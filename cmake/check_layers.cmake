# Fails when a file of lib/<layer>/ includes a header of a layer that is not below its own.
# Run by the lance_layering target (CMakeLists.txt), which passes:
#   LIB_DIR     the lib/ folder
#   LAYERS      the layers, comma-separated, lowest first
#   DEPS_<l>    the layers layer <l> links directly, comma-separated
# A layer may include its own headers and those of every layer it reaches through DEPS.

string(REPLACE "," ";" layers "${LAYERS}")

# Transitive closure of the direct dependencies, per layer (layers are listed lowest first,
# so every dependency's closure is known when a layer is reached).
foreach(layer ${layers})
  string(REPLACE "," ";" direct "${DEPS_${layer}}")
  set(reach_${layer} ${layer})
  foreach(dep ${direct})
    list(APPEND reach_${layer} ${reach_${dep}})
  endforeach()
  list(REMOVE_DUPLICATES reach_${layer})
endforeach()

set(violations "")
foreach(layer ${layers})
  file(GLOB_RECURSE files "${LIB_DIR}/${layer}/*.h" "${LIB_DIR}/${layer}/*.cpp")
  foreach(f ${files})
    file(STRINGS "${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"[a-z0-9_]+/")
    foreach(line ${includes})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([a-z0-9_]+)/.*$" "\\1" target "${line}")
      list(FIND layers "${target}" known)
      if(known EQUAL -1)
        continue()  # not a layer folder (e.g. a generated header's directory)
      endif()
      list(FIND reach_${layer} "${target}" allowed)
      if(allowed EQUAL -1)
        file(RELATIVE_PATH rel "${LIB_DIR}" "${f}")
        string(APPEND violations "  lib/${rel}: ${line} (layer ${layer} may include: ${reach_${layer}})\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "layering violated (CMakeLists.txt LANCE_LAYER_DEPS_*):\n${violations}")
endif()
