// cuda/grid/powm_bodies.cuh: what an exponentiation kernel does with its grid, written as host +
// device code so that the CPU tests run it (tests/cuda/on_host/test_on_host_grid.cpp): the window tables'
// layout in global memory and their sizes, the persistent-grid item loops, and the kernel
// bodies. The __global__ functions (cuda/kernels/generic_kernels.cuh) only copy a shared
// modulus or key to shared memory and call a body with their thread's index in the grid.
//
// Item policies (one per arithmetic and mapping, next to their item functions: MontPowmItem
// in powm.cuh, BarrettItem in barrett.cuh, CoopMontItem in coop_powm.cuh, CoopBarrettItem
// in coop_barrett.cuh) give the modulus constants' type `Ctx` and `run(...)`.
//
// Tables: P is the pointer type (uint32_t * in the kernels; the tests pass a checking one).
#pragma once
#include "cuda/warp/coop_powm.cuh"
#include "cuda/thread/powm.cuh"

namespace mpb {
namespace gpu {

// Fixed-window widths of the exponentiation kernels by modulus words (cuda/tuning.h
// GPU_POWM_WINDOW_SMALL below 1024-bit moduli, GPU_POWM_WINDOW from there). Sliding windows
// (public exponents) reuse the same table space with up to W + 1 bits.
MPB_HD constexpr int window_bits(int nwords) {
  return nwords >= 32 ? tuning::GPU_POWM_WINDOW : tuning::GPU_POWM_WINDOW_SMALL;
}
template <int N>
struct Window { static constexpr int W = window_bits(N); };

// One thread per item: entry k (N words) of thread t at words (k*N + j) * threads + t, so the
// threads of a warp touch consecutive words. 2^W entries plus the constant-time selection slot.
template <int N, int W, class P = uint32_t *>
struct StridedTable {
  P base;         // already offset by the thread's index in the grid
  size_t stride;  // threads in the grid
  MPB_HD void store(int k, const uint32_t *x) {
    MPB_UNROLL
    for (int j = 0; j < N; j++) base[(size_t)(k * N + j) * stride] = x[j];
  }
  MPB_HD uint32_t word(int k, int j) const { return base[(size_t)(k * N + j) * stride]; }
  MPB_HD void store_word(int k, int j, uint32_t x) { base[(size_t)(k * N + j) * stride] = x; }
};
// win: a fixed-window width other than window_bits(nwords) (0: that one; the comparison kernels
// of cuda/variants/ take others).
MPB_HD size_t thread_table_words(int nwords, size_t threads, int win = 0) {
  return (((size_t)1 << (win ? win : window_bits(nwords))) + 1) * (size_t)nwords * threads;
}

// A group of TPI lanes per item: lane l of the group whose first thread is t keeps its W-word
// slice of entry e at words (e*W + j) * threads + t + l. 2^WIN entries (the cooperative
// constant-time read keeps its selection in registers).
template <int W, class P = uint32_t *>
struct StridedCoopTable {
  P base;         // offset by the index of the group's first thread in the grid
  size_t stride;  // threads in the grid
  MPB_HD uint32_t word(int lane, int e, int j) const { return base[(size_t)(e * W + j) * stride + lane]; }
  MPB_HD void store_word(int lane, int e, int j, uint32_t x) { base[(size_t)(e * W + j) * stride + lane] = x; }
};
MPB_HD size_t coop_table_words_for(int nwords, int tpi, size_t threads, int win = 0) {
  return ((size_t)1 << (win ? win : window_bits(nwords))) * (size_t)(nwords / tpi) * threads;
}

// Persistent grid, a group of TPI lanes per item: group g handles items g, g + groups, ... with
// a loop bound that is uniform across each warp of 32 threads (a group without an item gets the
// last item again with real = false and must store nothing), so every full-mask shuffle and
// ballot has the whole warp present. tid: the index in the grid of any thread of the group;
// threads: the grid's threads (a multiple of 32). body(item, real).
template <int TPI, class Body>
MPB_HD void for_group_items(size_t tid, size_t threads, size_t count, Body body) {
  const size_t groups = threads / TPI;
  const size_t group = tid / TPI;
  const size_t warp_first = (tid / 32) * (32 / TPI);
  for (size_t first = warp_first; first < count; first += groups) {
    const size_t item = first + (group - warp_first);
    const bool real = item < count;
    body(real ? item : count - 1, real);
  }
}

// ---- kernel bodies -----------------------------------------------------------------------------
// base, out: count rows of N words. exp: rows of ewords words, e_stride = 0 (one exponent for
// all) or ewords. mods: m_stride = 0 (one modulus: `shared`, the kernel's shared-memory copy)
// or 1 (mods[item]). table: the grid's table (thread_table_words / coop_table_words_for).

// One thread per item; tid: the thread's index in the grid.
template <int N, int W, class Item, class P>
MPB_HD void thread_powm_body(size_t tid, size_t threads, uint32_t *out, const uint32_t *base,
                              const uint32_t *exp, int ewords, size_t e_stride,
                              const typename Item::Ctx *mods, int m_stride, const typename Item::Ctx *shared,
                              P table, size_t count) {
  StridedTable<N, W, P> tab{table + tid, threads};
  for (size_t item = tid; item < count; item += threads) {
    const typename Item::Ctx &m = m_stride == 0 ? *shared : mods[item];
    uint32_t b[N], r[N];
    MPB_UNROLL
    for (int j = 0; j < N; j++) b[j] = base[item * N + j];
    Item::run(r, b, exp + item * e_stride, ewords, m, tab);
    MPB_UNROLL
    for (int j = 0; j < N; j++) out[item * N + j] = r[j];
  }
}

// A group per item (DevGroup: one lane per thread; HostGroup: the whole group); tid0: the index
// of the group's first thread in the grid.
template <class G, int W, class Item, class P>
MPB_HD void coop_powm_body(const G &g, size_t tid0, size_t threads, uint32_t *out, const uint32_t *base,
                            const uint32_t *exp, int ewords, size_t e_stride, const typename Item::Ctx *mods,
                            int m_stride, const typename Item::Ctx *shared, P table, size_t count) {
  constexpr int N = G::TPI * W;
  StridedCoopTable<W, P> tab{table + tid0, threads};
  for_group_items<G::TPI>(tid0, threads, count, [&](size_t item, bool real) {
    const typename Item::Ctx &m = m_stride == 0 ? *shared : mods[item];
    uint32_t b[G::S][W], r[G::S][W];
    coop_load<G, W>(g, b, base + item * N);
    Item::run(g, r, b, exp + item * e_stride, ewords, m, tab);
    if (real) coop_store<G, W>(g, out + item * N, r);
  });
}

// RSA-CRT, one thread per item: c, out: count rows of 2N words; keys: k_stride 0 (`shared`) or 1.
template <int N, int W, bool CT, class P>
MPB_HD void thread_rsa_body(size_t tid, size_t threads, uint32_t *out, const uint32_t *c,
                             const RsaCtx<N> *keys, int k_stride, const RsaCtx<N> *shared, P table,
                             size_t count) {
  StridedTable<N, W, P> tab{table + tid, threads};
  for (size_t item = tid; item < count; item += threads) {
    const RsaCtx<N> &k = k_stride == 0 ? *shared : keys[item];
    // c is read from global memory where needed and the output row doubles as scratch
    rsa_crt_item<N, W, CT>(out + item * 2 * N, c + item * 2 * N, k, tab);
  }
}

// RSA-CRT, a group per item.
template <class G, int W, int WIN, bool CT, class P>
MPB_HD void coop_rsa_body(const G &g, size_t tid0, size_t threads, uint32_t *out, const uint32_t *c,
                           const RsaCtx<G::TPI * W> *keys, int k_stride, const RsaCtx<G::TPI * W> *shared,
                           P table, size_t count) {
  constexpr int N = G::TPI * W;
  StridedCoopTable<W, P> tab{table + tid0, threads};
  for_group_items<G::TPI>(tid0, threads, count, [&](size_t item, bool real) {
    const RsaCtx<N> &k = k_stride == 0 ? *shared : keys[item];
    uint32_t lo[G::S][W], hi[G::S][W];
    coop_rsa_crt_item<G, W, WIN, CT>(g, lo, hi, c + item * 2 * N, k, tab);
    if (real) {
      coop_store<G, W>(g, out + item * 2 * N, lo);
      coop_store<G, W>(g, out + item * 2 * N + N, hi);
    }
  });
}

} // namespace gpu
} // namespace mpb
