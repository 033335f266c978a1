# bench/batch.cmake (helper "batch"): the README demo (mpb_demo: batch RSA-2048 by CRT,
# verified against GMP), the batch throughput benchmark (bench_batch: modexp and RSA-CRT vs
# GMP and `openssl speed`), and the seed 004 table (bench_multipartite).
add_executable(mpb_demo ${CMAKE_CURRENT_SOURCE_DIR}/demo.cpp)
target_link_libraries(mpb_demo PRIVATE mpb_benchcommon)
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/bench_batch.cpp)
  add_executable(bench_batch ${CMAKE_CURRENT_SOURCE_DIR}/bench_batch.cpp)
  target_link_libraries(bench_batch PRIVATE mpb_benchcommon)
endif()
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/bench_multipartite.cpp)
  add_executable(bench_multipartite ${CMAKE_CURRENT_SOURCE_DIR}/bench_multipartite.cpp)
  target_link_libraries(bench_multipartite PRIVATE mpb_benchcommon)
endif()
# AUTO against every forced CPU backend over sizes and batch sizes (bench_auto).
add_executable(bench_auto ${CMAKE_CURRENT_SOURCE_DIR}/bench_auto.cpp)
target_link_libraries(bench_auto PRIVATE mpb_benchcommon)
