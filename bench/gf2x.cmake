# bench/gf2x.cmake: bench_gf2x, GF(2)[x] multiplication (seed 002's Table 1) against Debian's
# gf2x (libgf2x-dev, when found), NTL's GF2X (libntl-dev, when found) and, at run time, a
# gf2x build with its PCLMUL code (bench/build_gf2x_pclmul.sh) loaded with dlopen.
add_executable(bench_gf2x ${CMAKE_CURRENT_SOURCE_DIR}/bench_gf2x.cpp)
target_link_libraries(bench_gf2x PRIVATE mpb_benchcommon ${CMAKE_DL_LIBS})
target_compile_options(bench_gf2x PRIVATE ${MPB_WARNINGS})
find_path(GF2X_INCLUDE_DIR gf2x.h)
if(GF2X_LIBRARY AND GF2X_INCLUDE_DIR)
  target_compile_definitions(bench_gf2x PRIVATE MPB_BENCH_HAVE_GF2X=1)
  target_include_directories(bench_gf2x PRIVATE ${GF2X_INCLUDE_DIR})
  target_link_libraries(bench_gf2x PRIVATE ${GF2X_LIBRARY})
endif()
find_path(NTL_INCLUDE_DIR NTL/GF2X.h)
if(NTL_LIBRARY AND NTL_INCLUDE_DIR)
  target_compile_definitions(bench_gf2x PRIVATE MPB_BENCH_HAVE_NTL=1)
  target_include_directories(bench_gf2x PRIVATE ${NTL_INCLUDE_DIR})
  target_link_libraries(bench_gf2x PRIVATE ${NTL_LIBRARY} ${GMP_LIBRARY})
endif()
