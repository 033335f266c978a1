// cuda/host/gpu_backend.h: the CUDA backend as seen from the batch layer (plain C++, no CUDA
// types, so cpu/batch/*.cpp can include it). Implemented by cuda/host/*.cu in a CUDA build and
// by cuda/host/gpu_stub.cpp otherwise, so the batch layer has no CUDA conditionals.
//
// The caller (cpu/batch/*.cpp) has validated the whole call already. These functions:
//  - split the batch over the chosen devices (one host thread per device),
//  - stream it through each device in chunks with two CUDA streams and pinned staging
//    buffers (copy-in of chunk k+1 and copy-out of chunk k-1 overlap the kernel on chunk k),
//    so batches larger than device memory work,
//  - never print and never abort: CUDA errors become MPB_EDEVICE with a reason in `why`.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace mpb {
namespace gpu {

struct Options {
  const int *devices = nullptr;  // NULL: every visible device
  int ndevices = 0;
  bool constant_time = true;
  size_t chunk_items = 0;        // 0: chosen from device memory
  int tpi = 0;                   // threads per item of powm/RSA kernels (0: cuda/tuning.h's choice)
  // powm only, for the comparison kernels outside the library (cuda/variants/, installed by
  // bench_gpu and the device tests with install_powm_variants): the Montgomery arithmetic of
  // the one-thread kernels (-1: tuning::GPU_POWM_MONT; 0..2: cuda/thread/mont.cuh MontVariant),
  // and fixed windows instead of sliding ones for variable-time exponentiation. A combination
  // without a kernel, or any of them when none is installed, gives MPB_EUNSUPPORTED.
  int mont_variant = -1;
  bool fixed_window = false;
  // Tuning alternatives, for bench_gpu (0: cuda/tuning.h's value; out of range: MPB_EVAL):
  // modmul's multipartite block kernel: operands in modmul_k parts (2..16), modmul_threads
  // threads per item (1..256); sliding-window exponentiation: window width `window` (1..7) for
  // every exponent length; GF(2)[x] comb kernels: alternative `gf2x_variant` (1..
  // gf2x_variant_count(), built with MPB_CUDA_TUNING_SHAPES: gf2x_variant_name says which).
  int modmul_k = 0;
  int modmul_threads = 0;
  int window = 0;
  int gf2x_variant = 0;
  // Fixed-window width of constant-time (or fixed_window) exponentiation: fixed_bits (2..6; 0
  // or cuda/tuning.h's width for the size: the library's kernels), the other widths built into
  // the comparison kernels with MPB_CUDA_TUNING_SHAPES at the default constant-time mappings
  // (powm_variants.cu).
  int fixed_bits = 0;
};

// The comparison kernels' table (cuda/kernels/launch.h), installed by their own library
// (cuda/variants/powm_variants.h: variants::install()); nullptr uninstalls them.
struct PowmVariants;
void install_powm_variants(const PowmVariants *v);
// The GF(2)[x] plan alternatives (cuda/kernels/launch.h Gf2xVariants; nullptr uninstalls), how
// many are installed (0: none, or built without MPB_CUDA_TUNING_SHAPES) and the name of
// alternative v for op 0 mul / 1 sqr / 2 mulmod (nullptr: none).
struct Gf2xVariants;
void install_gf2x_variants(const Gf2xVariants *v);
int gf2x_variant_count();
const char *gf2x_variant_name(int op, int v);

// True when the CUDA backend is built in; false in a build without CUDA, where every function
// here comes from cuda/host/gpu_stub.cpp (no device, no kernel, MPB_EUNSUPPORTED).
bool built();
// Usable CUDA devices (0 when none: no driver, no device, or a CUDA error; `why` says which).
int device_count(char *why, size_t why_len);
// Name, driver and runtime versions of device d ("NVIDIA H100 ...; driver 13.0; runtime 13.0").
int device_description(int d, char *out, size_t out_len);

// CUDA driver and runtime versions as "major.minor" strings.
int device_versions(char *driver, char *runtime, size_t len);
// Streaming multiprocessors and SM clock (GHz) of device d, for throughput bounds.
int device_sm_clock(int d, int *sms, double *ghz);

// Widths (64-bit limbs) with kernels; other widths are served by the CPU.
bool powm_width_supported(size_t width);      // 8, 16, 32, 64, 128 (512..8192 bits)
bool rsa_half_width_supported(size_t hwidth); // 8, 16, 32, 64 (RSA-1024..RSA-8192)
// Threads per item that powm/rsa_crt use for a size given Options::tpi (0 = none fits).
int powm_tpi(size_t width, int requested);
int rsa_tpi(size_t half_width, int requested);
// True when that many threads per item is a shape built only for tuning (MPB_CUDA_TUNING_SHAPES).
bool tuning_only_tpi(bool rsa, size_t width, int tpi);
bool mul_width_supported(size_t width);       // 4, 8, 16
bool gf2x_width_supported(size_t width);      // GF(2)[x] mul/sqr: 1, 2, 3, 4, 5, 7, 8, 9, 16
bool gf2x_mulmod_width_supported(size_t fw);  // GF(2)[x] mulmod: 1, 2, 3, 4, 5, 7, 8, 9 (any f)
// Batch modmul kernel for a width: 1 = one thread per item (widths 1..16 limbs, Montgomery),
// 2 = the multipartite block kernel (wider, up to tuning::GPU_MODMUL_BLOCK_MAX_LIMBS), 0 = none.
int modmul_kernel_for(size_t width);
// True when even moduli of this width have a GPU kernel (the one-thread CRT variant).
bool modmul_even_supported(size_t width);

// r = base^e mod m; m > 1 of any parity (m_rows 1 or count), e rows of e_width limbs (e_rows 1
// or count). All moduli odd: Montgomery kernels; any modulus row even: the whole call runs on
// the Barrett kernels (cuda/thread/barrett.cuh, coop_barrett.cuh; same sizes and mappings).
int powm(uint64_t *r, const uint64_t *base, const uint64_t *e, size_t e_width, size_t e_rows,
         const uint64_t *m, size_t m_rows, size_t width, size_t count, const Options &opt,
         char *why, size_t why_len);
// RSA private key by CRT (one key, key_rows = 1, or one per item).
int rsa_crt(uint64_t *out, const uint64_t *c, const uint64_t *p, const uint64_t *q,
            const uint64_t *dp, const uint64_t *dq, const uint64_t *qinv, size_t width,
            size_t half_width, size_t key_rows, size_t count, const Options &opt, char *why,
            size_t why_len);
// r = a * b mod m (cuda/host/gpu_modmul.cu); m nonzero (m_rows 1 or count), a, b < m. Returns
// MPB_EUNSUPPORTED for an even modulus where modmul_even_supported() is false, a width
// without kernel, or (block kernel) a modulus below 256 bits.
int modmul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t m_rows, size_t width,
           size_t count, const Options &opt, char *why, size_t why_len);
// r (2*width limbs per row) = a * b; delayed-carry Comba (dc = true) or carry chains.
int mul(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t width, size_t count, bool dc,
        const Options &opt, char *why, size_t why_len);

// GF(2)[x] rows (bit i = coefficient of x^i; cuda/host/gpu_gf2x.cu): r (2*width limbs per row)
// = a * b, r = a^2, and r (f_width limbs) = a * b mod f for one f shared by the batch
// (deg f >= 1, deg a, deg b < deg f: validated by the caller). A NIST polynomial at its
// width runs the sparse-fold kernel, any other f the Barrett kernel. Inversion has no kernel.
int gf2x_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t width, size_t count,
             const Options &opt, char *why, size_t why_len);
int gf2x_sqr(uint64_t *r, const uint64_t *a, size_t width, size_t count, const Options &opt,
             char *why, size_t why_len);
int gf2x_mulmod(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *f, size_t f_width,
                size_t count, const Options &opt, char *why, size_t why_len);

} // namespace gpu
} // namespace mpb
