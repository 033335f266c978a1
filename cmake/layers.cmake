# cmake/layers.cmake: the library's layers as CMake object libraries.
#
# Every layer is one folder (cpu/core, cpu/mpn, ..., cuda) and one object library mpb_<layer>.
# Sources include headers by their layer-qualified path ("mpn/mpn.h", "cuda/thread/mont.cuh").
# A layer's only include root (besides the public include/) is build/layers/<layer>/, which
# holds a symbolic link for the layer itself and for each layer it may use, and nothing else:
# an include of a layer it may not use fails to compile. The `layering` test
# (cmake/check_layers.cmake) checks the same rule on the sources.
#
#   mpb_layer_rule(<layer> <folder> [<layers it may use>...])   the table (top-level CMakeLists.txt)
#   mpb_layer(<layer> SOURCES <files>...)                        the object library mpb_<layer>
#   mpb_layer_root(<var> <name> <layers>...)                     build/layers/<name>/ seeing the
#                                                                given layers (tests, benchmarks)

set(MPB_LAYER_ROOTS ${PROJECT_BINARY_DIR}/layers)

function(mpb_layer_rule layer dir)
  set_property(GLOBAL PROPERTY MPB_LAYER_DIR_${layer} ${dir})
  set_property(GLOBAL PROPERTY MPB_LAYER_ALLOW_${layer} ${ARGN})
  set_property(GLOBAL APPEND PROPERTY MPB_LAYERS ${layer})
endfunction()

function(mpb_layer_root out name)
  set(root ${MPB_LAYER_ROOTS}/${name})
  file(REMOVE_RECURSE ${root})
  file(MAKE_DIRECTORY ${root})
  foreach(layer ${ARGN})
    get_property(dir GLOBAL PROPERTY MPB_LAYER_DIR_${layer})
    if(NOT dir)
      message(FATAL_ERROR "mpb_layer_root: unknown layer '${layer}'")
    endif()
    file(CREATE_LINK ${dir} ${root}/${layer} SYMBOLIC)
  endforeach()
  set(${out} ${root} PARENT_SCOPE)
endfunction()

function(mpb_layer layer)
  cmake_parse_arguments(L "" "" "SOURCES" ${ARGN})
  get_property(allow GLOBAL PROPERTY MPB_LAYER_ALLOW_${layer})
  mpb_layer_root(root ${layer} ${layer} ${allow})
  add_library(mpb_${layer} OBJECT ${L_SOURCES})
  target_include_directories(mpb_${layer} PRIVATE ${PROJECT_SOURCE_DIR}/include ${root})
  target_compile_options(mpb_${layer} PRIVATE $<$<COMPILE_LANGUAGE:CXX,C>:${MPB_WARNINGS}>)
  # Every function starts on a 64-byte line and every loop on a 32-byte boundary, so that the
  # placement of a hot loop does not depend on how much unrelated code the linker put before it.
  # Without them, adding one unrelated file moved RSA-2048 on the AVX2 lanes by 5-10% (Zen 3,
  # 2026-11-27: the same window_exp starting 48 bytes into a line or at its start), which the
  # measurement of any later change would have taken for that change's effect. With both, it ran
  # as fast as the luckier of the two placements (bench/batch/ab_libs, the two builds in one
  # process; functions alone: 2-6% slower).
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(mpb_${layer} PRIVATE $<$<COMPILE_LANGUAGE:CXX,C>:-falign-functions=64 -falign-loops=32>)
  endif()
  target_compile_definitions(mpb_${layer} PRIVATE MPB_BUILDING_LIBRARY)
  target_link_libraries(mpb_${layer} PRIVATE OpenMP::OpenMP_CXX)
  set_property(GLOBAL APPEND PROPERTY MPB_LAYER_TARGETS mpb_${layer})
endfunction()

# "layer:allowed,allowed" for every layer, and "layer=folder", for cmake/check_layers.cmake.
function(mpb_layer_table rules_out dirs_out)
  get_property(layers GLOBAL PROPERTY MPB_LAYERS)
  set(rules "")
  set(dirs "")
  foreach(layer ${layers})
    get_property(allow GLOBAL PROPERTY MPB_LAYER_ALLOW_${layer})
    get_property(dir GLOBAL PROPERTY MPB_LAYER_DIR_${layer})
    string(JOIN "," a ${allow})
    list(APPEND rules "${layer}:${a}")
    list(APPEND dirs "${layer}=${dir}")
  endforeach()
  string(JOIN "|" dirs ${dirs})
  set(${rules_out} "${rules}" PARENT_SCOPE)
  set(${dirs_out} "${dirs}" PARENT_SCOPE)
endfunction()
