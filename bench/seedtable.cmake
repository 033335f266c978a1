# bench_seed_table: the seed manual's section 6.1 table, mpbatch vs GMP vs OpenSSL vs LibTomMath.
add_executable(bench_seed_table bench_seed_table.cpp seedtable/timer.cpp seedtable/run_mpbatch.cpp
               seedtable/run_gmp.cpp seedtable/run_openssl.cpp seedtable/run_tommath.cpp)
target_link_libraries(bench_seed_table PRIVATE mpb_benchcommon)
if(OpenSSL_FOUND)
  target_compile_definitions(bench_seed_table PRIVATE SEEDTABLE_HAVE_OPENSSL)
  target_link_libraries(bench_seed_table PRIVATE OpenSSL::Crypto)
endif()
if(TOMMATH_LIBRARY AND TOMMATH_INCLUDE_DIR)
  target_compile_definitions(bench_seed_table PRIVATE SEEDTABLE_HAVE_TOMMATH)
  target_link_libraries(bench_seed_table PRIVATE ${TOMMATH_LIBRARY})
endif()
