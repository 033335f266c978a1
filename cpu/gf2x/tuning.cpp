// cpu/gf2x/tuning.cpp: the runtime copy of the GF(2)[x] cut-offs in cpu/gf2x/tuning.h.
#include "gf2x/tuning.h"

namespace mpb {
namespace tuning {
static Gf2xParams g_gf2x_params;
Gf2xParams &gf2x_params() { return g_gf2x_params; }
void reset_gf2x_params() { g_gf2x_params = Gf2xParams(); }
} // namespace tuning
} // namespace mpb
