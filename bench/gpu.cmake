# bench_gpu: the CUDA backend's throughput sweep (only with the CUDA backend).
if(MPB_HAVE_CUDA)
  add_executable(bench_gpu ${CMAKE_CURRENT_SOURCE_DIR}/bench_gpu.cpp)
  target_link_libraries(bench_gpu PRIVATE mpb_benchcommon)
endif()
