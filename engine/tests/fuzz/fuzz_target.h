// The fuzz targets' entry point, libFuzzer's: one input, any bytes. A target returns 0 for every
// input it handles as it should (loaded, or refused with an InputError); anything else escaping
// it, or a crash, is a finding.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
