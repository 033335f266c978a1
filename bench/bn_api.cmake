# mp_int API benchmark (helper "bnapi"): mp_mul/mp_sqr vs GMP mpn_mul_n/mpn_sqr, mp_div, radix.
add_executable(bench_bn_api ${CMAKE_CURRENT_SOURCE_DIR}/bench_bn_api.cpp)
target_link_libraries(bench_bn_api PRIVATE mpb_benchcommon)
