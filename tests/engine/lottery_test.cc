// Listing 1's piece assignment: every piece lands on a core, pieces of a row cluster,
// and the per-core weight is balanced.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "engine/execution/lottery.h"

namespace caracal::engine {
namespace {

TEST(LotteryTest, EveryPieceLandsOnACoreAndWeightsBalance) {
  // The paper's Figure 3: rows with 5k, 10k, 4k and 5k pieces on 4 cores.
  const int rows[] = {5000, 10000, 4000, 5000};
  std::vector<LotteryTicket> tickets;
  uint64_t seed = 1;
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < rows[r]; ++i) tickets.push_back({&rows[r], 1, seed++});
  const std::vector<int> cores = AssignPieces(tickets, 4);
  ASSERT_EQ(cores.size(), tickets.size());
  std::vector<int> load(4);
  std::map<const void*, std::set<int>> cores_of_row;
  for (size_t i = 0; i < cores.size(); ++i) {
    ASSERT_GE(cores[i], 0);
    ASSERT_LT(cores[i], 4);
    ++load[cores[i]];
    cores_of_row[tickets[i].row].insert(cores[i]);
  }
  // Expected 6000 each; the draw is random, so allow 5%.
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(load[c], 6000, 300) << "core " << c;
  // Row 1 (5k) fits in core 0's share; row 4 in core 3's; row 2 spans cores 0-2.
  EXPECT_EQ(cores_of_row[&rows[0]], (std::set<int>{0}));
  EXPECT_EQ(cores_of_row[&rows[3]], (std::set<int>{3}));
  EXPECT_EQ(cores_of_row[&rows[1]], (std::set<int>{0, 1, 2}));
  EXPECT_EQ(cores_of_row[&rows[2]], (std::set<int>{2, 3}));
}

TEST(LotteryTest, WeightsCountNotPieces) {
  int heavy = 0, light = 0;
  std::vector<LotteryTicket> tickets;
  for (int i = 0; i < 100; ++i) tickets.push_back({&heavy, 10, static_cast<uint64_t>(i)});
  for (int i = 0; i < 1000; ++i) tickets.push_back({&light, 1, static_cast<uint64_t>(1000 + i)});
  const std::vector<int> cores = AssignPieces(tickets, 2);
  std::vector<uint64_t> load(2);
  for (size_t i = 0; i < cores.size(); ++i) load[cores[i]] += tickets[i].weight;
  EXPECT_NEAR(static_cast<double>(load[0]), 1000.0, 60.0);
  EXPECT_NEAR(static_cast<double>(load[1]), 1000.0, 60.0);
}

TEST(LotteryTest, OneCoreTakesEverything) {
  int row = 0;
  std::vector<LotteryTicket> tickets(10, LotteryTicket{&row, 3, 7});
  for (int c : AssignPieces(tickets, 1)) EXPECT_EQ(c, 0);
}

}  // namespace
}  // namespace caracal::engine
