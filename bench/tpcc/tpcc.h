// The hand-written native TPC-C workload (paper §5.4): `tpcc` with options.warehouses
// warehouses, and `tpcc-1wh`, the contended single-warehouse variant.
#pragma once

#include <memory>

#include "bench/workload.h"

namespace caracal::bench {

std::unique_ptr<Workload> MakeTpcc(const WorkloadOptions& options, bool single_warehouse);

}  // namespace caracal::bench
