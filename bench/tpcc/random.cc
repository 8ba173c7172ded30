#include "bench/tpcc/random.h"

#include <array>

namespace caracal::bench::tpcc {

int64_t Uniform(Rng& rng, int64_t lo, int64_t hi) {
  const auto range = static_cast<uint64_t>(hi - lo) + 1;
  const auto scaled = static_cast<unsigned __int128>(rng()) * range;
  return lo + static_cast<int64_t>(scaled >> 64);
}

NURandConstants NURandConstants::Draw(Rng& rng) {
  NURandConstants c;
  c.c_last = static_cast<int>(Uniform(rng, 0, 255));
  c.c_id = static_cast<int>(Uniform(rng, 0, 1023));
  c.ol_i_id = static_cast<int>(Uniform(rng, 0, 8191));
  return c;
}

int64_t NURand(Rng& rng, int a, int64_t x, int64_t y, int c) {
  return (((Uniform(rng, 0, a) | Uniform(rng, x, y)) + c) % (y - x + 1)) + x;
}

namespace {

constexpr std::string_view kAlnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Fills `out` with characters of `alphabet`, taking 8 bits per character from each 64-bit
// draw (8 characters per draw keeps loading fast; the modulo bias is irrelevant here).
void FillRandom(Rng& rng, std::string& out, std::string_view alphabet) {
  uint64_t bits = 0;
  int left = 0;
  for (char& ch : out) {
    if (left == 0) {
      bits = rng();
      left = 8;
    }
    ch = alphabet[(bits & 0xff) % alphabet.size()];
    bits >>= 8;
    --left;
  }
}

std::string RandomString(Rng& rng, int min_len, int max_len, std::string_view alphabet) {
  std::string s(static_cast<size_t>(Uniform(rng, min_len, max_len)), ' ');
  FillRandom(rng, s, alphabet);
  return s;
}

}  // namespace

std::string AString(Rng& rng, int min_len, int max_len) { return RandomString(rng, min_len, max_len, kAlnum); }

std::string NString(Rng& rng, int min_len, int max_len) {
  return RandomString(rng, min_len, max_len, kAlnum.substr(0, 10));
}

std::string LastName(int number) {
  static constexpr std::array<std::string_view, 10> kSyllables = {"BAR", "OUGHT", "ABLE",  "PRI",  "PRES",
                                                                  "ESE", "ANTI",  "CALLY", "ATION", "EING"};
  std::string name;
  name += kSyllables[number / 100];
  name += kSyllables[(number / 10) % 10];
  name += kSyllables[number % 10];
  return name;
}

std::string DataWithOriginal(Rng& rng) {
  std::string data = AString(rng, 26, 50);
  if (Uniform(rng, 1, 10) == 1) {
    constexpr std::string_view kOriginal = "ORIGINAL";
    const auto pos = static_cast<size_t>(Uniform(rng, 0, static_cast<int64_t>(data.size() - kOriginal.size())));
    data.replace(pos, kOriginal.size(), kOriginal);
  }
  return data;
}

std::string Zip(Rng& rng) { return NString(rng, 4, 4) + "11111"; }

std::string State(Rng& rng) {
  std::string s(2, ' ');
  FillRandom(rng, s, kAlnum.substr(10, 26));
  return s;
}

uint64_t DeriveSeed(uint64_t seed, uint64_t stream) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace caracal::bench::tpcc
