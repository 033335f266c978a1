# Integer multiplication benchmark and the integer part of the tuner (helper "mulcore").
add_executable(bench_mul ${CMAKE_CURRENT_SOURCE_DIR}/bench_mul.cpp)
target_link_libraries(bench_mul PRIVATE mpb_benchcommon)

if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/tune.cpp)
  add_executable(tune ${CMAKE_CURRENT_SOURCE_DIR}/tune.cpp)
  target_link_libraries(tune PRIVATE mpb_benchcommon)
endif()
