#include "bench/workload.h"

#include "bench/tpcc/tpcc.h"
#include "bench/ycsb/ycsb.h"

namespace caracal::bench {

std::unique_ptr<Workload> MakeWorkload(const std::string& name, const WorkloadOptions& options) {
  if (name == "ycsb-uniform") return MakeYcsb(options, YcsbVariant::kUniform);
  if (name == "ycsb-skew") return MakeYcsb(options, YcsbVariant::kSkew);
  if (name == "ycsb-contention") return MakeYcsb(options, YcsbVariant::kContention);
  if (name == "ycsb-contention-skew") return MakeYcsb(options, YcsbVariant::kContentionSkew);
  if (name == "tpcc") return MakeTpcc(options, false);
  if (name == "tpcc-1wh") return MakeTpcc(options, true);
  return nullptr;
}

}  // namespace caracal::bench
