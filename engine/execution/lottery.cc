#include "engine/execution/lottery.h"

#include <unordered_map>

namespace caracal::engine {

namespace {

uint64_t Mix(uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::vector<int> AssignPieces(std::span<const LotteryTicket> tickets, int cores) {
  struct Interval {
    uint64_t start = 0;
    uint64_t sum = 0;
  };
  std::unordered_map<const void*, Interval> rows;
  std::vector<const void*> order;  // first appearance: deterministic intervals
  for (const LotteryTicket& t : tickets) {
    auto [it, inserted] = rows.try_emplace(t.row);
    if (inserted) order.push_back(t.row);
    it->second.sum += t.weight;
  }
  uint64_t total = 0;
  for (const void* row : order) {
    Interval& in = rows[row];
    in.start = total;
    total += in.sum;
  }
  std::vector<int> out;
  out.reserve(tickets.size());
  for (const LotteryTicket& t : tickets) {
    const Interval& in = rows[t.row];
    const uint64_t point = in.start + Mix(t.seed) % in.sum;
    out.push_back(static_cast<int>(static_cast<unsigned __int128>(point) * static_cast<unsigned>(cores) / total));
  }
  return out;
}

}  // namespace caracal::engine
