# bench_simd: lane-parallel Montgomery exponentiation (IFMA x8, AVX2 x4) vs GMP and OpenSSL
# (helper "ifma").
add_executable(bench_simd ${CMAKE_CURRENT_SOURCE_DIR}/bench_simd.cpp)
target_link_libraries(bench_simd PRIVATE mpb_benchcommon)
if(OpenSSL_FOUND)
  target_compile_definitions(bench_simd PRIVATE BENCH_SIMD_HAVE_OPENSSL)
  target_link_libraries(bench_simd PRIVATE OpenSSL::Crypto)
endif()
