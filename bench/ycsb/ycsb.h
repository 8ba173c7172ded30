// YCSB as the Caracal paper runs it (§5.3, DESIGN §5): 10 distinct keys per transaction,
// 1000-byte rows of ten char(100) fields; a read reads the whole row, a write rewrites
// field0 (the first 100 bytes).
#pragma once

#include <memory>

#include "bench/workload.h"

namespace caracal::bench {

enum class YcsbVariant {
  kUniform,            // 8:2 read/write, uniform keys
  kSkew,               // 8:2 read/write, Zipf s = 0.9
  kContention,         // 0:10 read/write, 7 of 10 keys from 77 hot rows, uniform
  kContentionSkew,     // as kContention, Zipf s = 0.9 within both key sets
};

std::unique_ptr<Workload> MakeYcsb(const WorkloadOptions& options, YcsbVariant variant);

}  // namespace caracal::bench
