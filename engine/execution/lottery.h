// The probabilistic piece assignment of the paper's Listing 1 (§3.4.2): each contended
// row owns an interval of the total piece weight, proportional to its pieces' weights;
// a piece lands on the core whose equal share of the total contains a random point of
// its row's interval. Pieces of one row cluster on one or a few cores, and every core
// gets about the same weight.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace caracal::engine {

struct LotteryTicket {
  const void* row;  // pieces with the same row share an interval
  uint32_t weight;  // >= 1
  uint64_t seed;    // picks the point inside the interval (e.g. the serial id)
};

// The core, in [0, cores), of each ticket.
std::vector<int> AssignPieces(std::span<const LotteryTicket> tickets, int cores);

}  // namespace caracal::engine
