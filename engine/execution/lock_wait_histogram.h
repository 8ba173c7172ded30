// LockWaitHistogram: how long initialization waited for row locks, in power-of-two
// nanosecond buckets (an uncontended acquisition counts as a zero wait), so the
// benchmark can report a tail percentile without storing every sample.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace caracal::engine {

class LockWaitHistogram {
 public:
  void Add(uint64_t wait_ns) {
    ++buckets_[wait_ns == 0 ? 0 : std::min<int>(63, std::bit_width(wait_ns))];
  }
  void Merge(const LockWaitHistogram& other) {
    for (size_t i = 0; i < buckets_.size(); ++i) buckets_[i] += other.buckets_[i];
  }
  // Upper bound of the bucket holding the p-quantile, in microseconds.
  double PercentileUs(double p) const {
    uint64_t total = 0;
    for (uint64_t b : buckets_) total += b;
    if (total == 0) return 0;
    uint64_t rank = static_cast<uint64_t>(p * static_cast<double>(total)), seen = 0;
    for (size_t i = 0; i < buckets_.size(); ++i) {
      seen += buckets_[i];
      if (seen > rank) return i == 0 ? 0.0 : static_cast<double>(uint64_t{1} << i) / 1000.0;
    }
    return 0;
  }

 private:
  std::array<uint64_t, 64> buckets_{};
};

}  // namespace caracal::engine
