// cpu/batch/validate.h: whole-call input validation (cpu/batch/validate.cpp). Each check
// returns MPB_OK or the failing status, already recorded in `call` with the item index and
// the argument it concerns; nothing is written to the outputs before every check passed.
#pragma once
#include <cstddef>
#include <initializer_list>

#include "batch/call.h"

namespace mpb {
namespace batch {

// ctx not NULL, width in range, count * width * row_mult limbs addressable (begin_call's first
// checks; also the single-operand calls').
int check_shape(Call &call, const mpb_ctx *ctx, size_t width, size_t count, size_t row_mult);
int check_ptr(Call &call, const void *p, int arg);
// Each pointer non-NULL, in order: the first NULL one is reported with its argument.
int check_ptrs(Call &call, std::initializer_list<PtrArg> ptrs);
// rows must be 1 or count.
int check_rows(Call &call, size_t rows, size_t count, int arg);
// The backend the settings force is usable for this op (gpu_ok: the op has a CUDA path).
int check_backend(Call &call, const Settings &s, bool gpu_ok = false);
// Every modulus row nonzero (need_odd: odd and > 1).
int check_modulus(Call &call, const limb *m, size_t rows, size_t width, bool need_odd, int arg);
// a[i] < m[rows==1 ? 0 : i] for i < count (a has `count` rows of aw limbs, m rows of mw limbs).
int check_below(Call &call, const limb *a, size_t aw, size_t count, const limb *m, size_t mrows,
                size_t mw, int arg);
// RSA key rows (see batch.h). Allocates one temporary block.
int check_rsa_keys(Call &call, const limb *n, const limb *p, const limb *q, const limb *dp,
                   const limb *dq, const limb *qinv, size_t width, size_t hw, size_t rows);
// An output block (count rows) may be the very same rows as an input with one row per item
// (item i reads row i before writing row i); any other overlap with a (count rows) or b
// (b_rows rows) is refused.
int check_aliases(Call &call, const limb *out, int out_arg, const limb *a, const limb *b, size_t b_rows,
                  size_t width, size_t count);
// 2 <= peer[i] <= p-2.
int check_dh_peer(Call &call, const limb *peer, const limb *p, size_t width, size_t count);

// The moduli of an exponentiation call, validated once (every row > 1) and described once:
// the shared row or one row per item, their sizes and parity. Carried down to the engine.
struct Moduli {
  const limb *m = nullptr;
  size_t stride = 0;  // limbs between rows: 0 = one row shared by every item, else width
  size_t rows = 0;    // 1 or count
  size_t width = 0;   // limbs per row
  size_t max_n = 0;   // the largest normalized size
  bool any_even = false;
  bool shared() const { return stride == 0; }
  const limb *row(size_t i) const { return m + i * stride; }
  size_t n(size_t i) const { return mpn::normalized_size(row(i), width); }  // normalized size of item i's row
};
// Checks every row is > 1 (any parity) and describes them in *out.
int check_moduli(Call &call, const limb *m, size_t rows, size_t width, int arg, Moduli *out);
// The same description of rows already validated (an odd part q, a key's prime).
Moduli describe_moduli(const limb *m, size_t rows, size_t width);

} // namespace batch
} // namespace mpb
