// zlib (Debian's zlib1g-dev), for gzip-compressing static answers once at start.
#include <zlib.h>
