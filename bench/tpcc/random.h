// TPC-C random functions (clause 2.1.6 and 4.3.2) over std::mt19937_64. Everything here
// is computed from the generator's raw 64-bit output with our own arithmetic, never with
// std::uniform_*_distribution, whose results differ between standard libraries: a seed
// must give the same database and the same transaction stream everywhere.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <string_view>

namespace caracal::bench::tpcc {

using Rng = std::mt19937_64;

// Uniform integer in [lo, hi] (Lemire's multiply-shift; the bias is < 2^-40 here).
int64_t Uniform(Rng& rng, int64_t lo, int64_t hi);

// The run-time constants C of NURand (clause 2.1.6), drawn once per workload.
struct NURandConstants {
  int c_last = 0;   // for A = 255 (customer last names)
  int c_id = 0;     // for A = 1023 (customer ids)
  int ol_i_id = 0;  // for A = 8191 (item ids)

  static NURandConstants Draw(Rng& rng);
};

// NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x.
int64_t NURand(Rng& rng, int a, int64_t x, int64_t y, int c);

// Random alphanumeric string of length in [min_len, max_len] ("a-string").
std::string AString(Rng& rng, int min_len, int max_len);
// Random numeric string of length in [min_len, max_len] ("n-string").
std::string NString(Rng& rng, int min_len, int max_len);
// The customer last name of clause 4.3.2.3 for a number in [0, 999].
std::string LastName(int number);
// i_data / s_data: an a-string of 26..50 characters; 10% contain "ORIGINAL" somewhere.
std::string DataWithOriginal(Rng& rng);
// A zip code: 4 random digits followed by "11111" (clause 4.3.2.7).
std::string Zip(Rng& rng);
// Two random upper-case letters, for the state columns.
std::string State(Rng& rng);

// Seeds for independent generators derived from one seed (splitmix64 finalizer), so that
// loader tasks each get their own stream whatever thread runs them.
uint64_t DeriveSeed(uint64_t seed, uint64_t stream);

}  // namespace caracal::bench::tpcc
