# bench/powm.cmake (helper "modarith"): bench_powm, modular exponentiation with a full-size
# exponent: mp_exptmod / mp_exptmod_ct / mpn::powm vs GMP mpz_powm, mpz_powm_sec and
# LibTomMath mp_exptmod (its tommath.h clashes with mpbatch/bn.h, so the LTM calls live in
# their own translation unit, bench_powm_ltm.cpp).
set(MPB_POWM_BENCH_SRC ${CMAKE_CURRENT_SOURCE_DIR}/bench_powm.cpp)
if(TOMMATH_LIBRARY AND TOMMATH_INCLUDE_DIR)
  list(APPEND MPB_POWM_BENCH_SRC ${CMAKE_CURRENT_SOURCE_DIR}/bench_powm_ltm.cpp)
endif()
add_executable(bench_powm ${MPB_POWM_BENCH_SRC})
target_link_libraries(bench_powm PRIVATE mpb_benchcommon)
if(TOMMATH_LIBRARY AND TOMMATH_INCLUDE_DIR)
  target_compile_definitions(bench_powm PRIVATE MPB_BENCH_HAVE_LTM=1)
  set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/bench_powm_ltm.cpp PROPERTIES
                              INCLUDE_DIRECTORIES ${TOMMATH_INCLUDE_DIR})
  target_link_libraries(bench_powm PRIVATE ${TOMMATH_LIBRARY})
endif()
