// LibTomMath side of bench_powm (own translation unit: tommath.h and mpbatch/bn.h clash).
// Values cross the boundary as big-endian byte strings.
#include <tommath.h>

#include <chrono>
#include <ctime>
#include <vector>

// thread CPU time (less disturbed by other processes on a shared machine than wall time)
static inline double cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

// ns per mp_exptmod(a, e, m) (minimum over `reps` timed batches); returns -1 on error.
// `out` receives the result (big-endian) so the caller can check it.
double ltm_exptmod_ns(const std::vector<unsigned char> &a, const std::vector<unsigned char> &e,
                      const std::vector<unsigned char> &m, int iters, int reps,
                      std::vector<unsigned char> *out) {
  mp_int A, E, M, R;
  if (mp_init_multi(&A, &E, &M, &R, NULL) != MP_OKAY) return -1;
  double best = -1;
  if (mp_from_ubin(&A, a.data(), a.size()) == MP_OKAY &&
      mp_from_ubin(&E, e.data(), e.size()) == MP_OKAY &&
      mp_from_ubin(&M, m.data(), m.size()) == MP_OKAY) {
    for (int r = 0; r < reps; r++) {
      double t0 = cpu_ns();
      for (int i = 0; i < iters; i++)
        if (mp_exptmod(&A, &E, &M, &R) != MP_OKAY) goto done;
      double t1 = cpu_ns();
      double ns = (t1 - t0) / iters;
      if (best < 0 || ns < best) best = ns;
    }
    if (out) {
      out->assign(mp_ubin_size(&R), 0);
      size_t w = 0;
      mp_to_ubin(&R, out->data(), out->size(), &w);
      out->resize(w);
    }
  }
done:
  mp_clear_multi(&A, &E, &M, &R, NULL);
  return best;
}
