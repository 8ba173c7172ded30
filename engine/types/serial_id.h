// Serial ids: (epoch, sequence) packed into 64 bits so that integer order is serial order.
// Sequence numbers start at 1; sequence 0 of epoch E is "the state before epoch E", which
// is what a snapshot of the last committed epoch E-1 reads.
#pragma once

#include <cstdint>

namespace caracal::engine {

using SerialId = uint64_t;

// Rows bulk-loaded while epoch E is the last committed one carry (E, kLoadSequence).
constexpr uint32_t kLoadSequence = UINT32_MAX;

constexpr SerialId MakeSerialId(uint32_t epoch, uint32_t sequence) {
  return (static_cast<uint64_t>(epoch) << 32) | sequence;
}
constexpr uint32_t EpochOf(SerialId sid) { return static_cast<uint32_t>(sid >> 32); }
constexpr uint32_t SequenceOf(SerialId sid) { return static_cast<uint32_t>(sid); }

}  // namespace caracal::engine
