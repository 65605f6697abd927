// libFuzzer target over the wire format v1 deserializer (oompi::from_bytes).
//
// The first input byte picks the type to read, the rest is the message. Whatever the bytes, a
// read must either succeed or throw oompi::serialization_error: no crash, no sanitizer report,
// no leak, no unbounded allocation. For types whose encoding is canonical, a successful read is
// written again and must give back exactly the input bytes.
//
// Built by -DOOMPI_BUILD_FUZZ=ON (clang, -fsanitize=fuzzer,address,undefined); see
// fuzz/CMakeLists.txt and fuzz/run.sh.

#include "wire_targets.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  try {
    fz::decode(data[0], data + 1, size - 1);
  } catch (const oompi::serialization_error&) {
  }
  return 0;
}
