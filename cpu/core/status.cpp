// Status strings and version information.
#include <mpbatch/bn.h>
#include <mpbatch/common.h>

#include "core/cpu_features.h"

#define MPB_STR2(x) #x
#define MPB_STR(x) MPB_STR2(x)

extern "C" {

MPB_API const char *mpb_strerror(int status) {
  switch (status) {
    case MPB_OK: return "success";
    case MPB_EMEM: return "out of memory";
    case MPB_EVAL: return "invalid input value";
    case MPB_ERANGE: return "size out of the supported range";
    case MPB_ENULL: return "a required pointer argument is NULL";
    case MPB_ESHAPE: return "batch shapes do not match";
    case MPB_EDEVICE: return "GPU device error or no usable device";
    case MPB_EUNSUPPORTED: return "backend or feature not available in this build";
    case MPB_ENOTINV: return "element is not invertible";
    case MPB_EFAULT: return "a result failed its check (fault): not released";
    default: return "unknown error code";
  }
}

MPB_API int mpb_abi_version(void) { return MPB_ABI_VERSION; }

MPB_API const char *mpb_version_string(void) { return "0.1.0"; }

MPB_API const char *mpb_cpu_features(void) { return mpb::cpu::describe(); }

MPB_API const char *mpb_mp_error_to_string(int code) {
  switch (code) {
    case MP_OKAY: return "Successful";
    case MP_MEM: return "Out of heap";
    case MP_VAL: return "Value out of range";
    default: return "Invalid error code";
  }
}

} // extern "C"
