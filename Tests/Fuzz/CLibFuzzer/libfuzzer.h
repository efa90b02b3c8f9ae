// libFuzzer's driver, for a fuzz target whose `main` is its own (SwiftPM names an executable's
// entry point `<target>_main`, so libFuzzer's `main` cannot be used). Linked by
// -sanitize=fuzzer from the toolchain's libclang_rt.fuzzer; declared here only.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
