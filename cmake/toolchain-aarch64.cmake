# Cross build for aarch64 Linux (Grace, Graviton) with Debian's cross compiler, tests run under
# qemu-user: apt-get install g++-aarch64-linux-gnu qemu-user, and (dpkg --add-architecture
# arm64) libgmp-dev:arm64 for the tests' oracle. scripts/test.sh does this when MPB_AARCH64=1.
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake -DMPB_CUDA=OFF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
find_program(MPB_QEMU_AARCH64 qemu-aarch64)
# The run-time libraries: Debian's arm64 multiarch ones (libgmp-dev:arm64 brings libc6:arm64) with
# their own loader, /lib/ld-linux-aarch64.so.1; mixing that libc with the cross toolchain's loader
# (-L /usr/aarch64-linux-gnu) makes pthread_create hang under qemu.
if(MPB_QEMU_AARCH64)
  if(EXISTS /lib/ld-linux-aarch64.so.1)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${MPB_QEMU_AARCH64} -L /)
  else()
    set(CMAKE_CROSSCOMPILING_EMULATOR ${MPB_QEMU_AARCH64} -L /usr/aarch64-linux-gnu)
  endif()
endif()
