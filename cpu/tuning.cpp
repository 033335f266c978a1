// The runtime copy of include/mpbatch/tuning.h.
#include <mpbatch/tuning.h>

namespace mpb {
namespace tuning {
static Params g_params;
Params &params() { return g_params; }
void reset_params() { g_params = Params(); }
} // namespace tuning
} // namespace mpb
