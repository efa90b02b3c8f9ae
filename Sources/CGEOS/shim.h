// Only the reentrant (_r) half of GEOS's C API: every call names its context.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
