#pragma once
// The entry point every fuzz target defines: libFuzzer's, also called by replay_main.cpp.

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
