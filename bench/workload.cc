#include "bench/workload.h"

#if __has_include("bench/tpcc/tpcc.h")
#include "bench/tpcc/tpcc.h"
#define HAVE_TPCC 1
#endif
#include "bench/ycsb/ycsb.h"

namespace caracal::bench {

std::unique_ptr<Workload> MakeWorkload(const std::string& name, const WorkloadOptions& options) {
  if (name == "ycsb-uniform") return MakeYcsb(options, YcsbVariant::kUniform);
  if (name == "ycsb-skew") return MakeYcsb(options, YcsbVariant::kSkew);
  if (name == "ycsb-contention") return MakeYcsb(options, YcsbVariant::kContention);
  if (name == "ycsb-contention-skew") return MakeYcsb(options, YcsbVariant::kContentionSkew);
#ifdef HAVE_TPCC
  if (name == "tpcc") return MakeTpcc(options, false);
  if (name == "tpcc-1wh") return MakeTpcc(options, true);
#endif
  return nullptr;
}

}  // namespace caracal::bench
