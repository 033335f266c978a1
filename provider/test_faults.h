/* Fault injection for the provider's tests. It is compiled in only with MPBP_TEST_FAULTS, which
 * only the test copy of the module has (<build>/tests/provider/mpbatch_faults.so, never
 * installed); in mpbatch.so both helpers are constant 0 and their branches compile away.
 *
 * Why: the provider checks every input before it queues it (c < n for RSA, the peer's value
 * for DH), so no real input makes the library fail one item of a batch. A fault in the
 * computation or a refusal by the library can still happen, and then the provider runs the
 * batch's items one by one so that only the failing one fails (rsa_run, run_or_split). The
 * tests reach that code through a marked input: an input row whose lowest limb is
 * MPBP_TEST_FAULT_MARK stands for an item that fails inside the library. */
#ifndef MPBP_TEST_FAULTS_H
#define MPBP_TEST_FAULTS_H

#include <stddef.h>
#include <stdint.h>
#ifdef MPBP_TEST_FAULTS
#include <stdlib.h>
#endif

#define MPBP_TEST_FAULT_MARK 0x6d70626661756c74ull /* "mpbfault" */

/* 1 when one of the count rows of `limbs` limbs at rows is marked. */
static inline int mpbp_test_marked(const uint64_t *rows, size_t limbs, size_t count) {
#ifdef MPBP_TEST_FAULTS
  for (size_t i = 0; i < count; i++)
    if (rows[i * limbs] == MPBP_TEST_FAULT_MARK) return 1;
#else
  (void)rows, (void)limbs, (void)count;
#endif
  return 0;
}

/* 1 when RSA keys are to be left without the library's prepared form (MPBP_TEST_UNPREPARED set
 * in the environment when the key is set up), so that the provider's own fault check runs. */
static inline int mpbp_test_unprepared(void) {
#ifdef MPBP_TEST_FAULTS
  return getenv("MPBP_TEST_UNPREPARED") != NULL;
#else
  return 0;
#endif
}

#endif
