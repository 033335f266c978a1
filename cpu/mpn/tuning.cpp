// cpu/mpn/tuning.cpp: the runtime copy of the multiplication cut-offs in cpu/mpn/tuning.h.
#include "mpn/tuning.h"

namespace mpb {
namespace tuning {
static Params g_params;
Params &params() { return g_params; }
void reset_params() { g_params = Params(); }
} // namespace tuning
} // namespace mpb
