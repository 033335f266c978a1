/* mpbatch/mpbatch.h: the umbrella header (everything a C program of the library needs). */
#ifndef MPBATCH_MPBATCH_H
#define MPBATCH_MPBATCH_H
#include <mpbatch/common.h>
#include <mpbatch/bn.h>
#if defined(__has_include)
#  if __has_include(<mpbatch/gf2x.h>)
#    include <mpbatch/gf2x.h>
#  endif
#endif
#include <mpbatch/batch.h>
#endif /* MPBATCH_MPBATCH_H */
