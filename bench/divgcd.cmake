# bench/divgcd.cmake (helper "divgcd"): batch gcd / modular inverse (variable and constant time)
# / division with remainder beside GMP's mpz_gcd / mpz_invert / mpn_sec_invert / mpz_tdiv_qr.
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/bench_divgcd.cpp)
  add_executable(bench_divgcd ${CMAKE_CURRENT_SOURCE_DIR}/bench_divgcd.cpp)
  target_link_libraries(bench_divgcd PRIVATE mpb_benchcommon)
endif()
