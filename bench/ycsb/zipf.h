// Zipfian key generator (Gray et al., "Quickly generating billion-record synthetic
// databases", SIGMOD'94; the generator YCSB uses): P(i) proportional to 1/(i+1)^theta
// over [0, n). Setup is O(n) once; each draw is O(1).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace caracal::bench {

class ZipfGenerator {
 public:
  ZipfGenerator(uint64_t n, double theta) : n_(n), theta_(theta) {
    zeta_n_ = Zeta(n, theta);
    double zeta2 = Zeta(2, theta);
    alpha_ = 1.0 / (1.0 - theta);
    eta_ = (1.0 - std::pow(2.0 / static_cast<double>(n), 1.0 - theta)) / (1.0 - zeta2 / zeta_n_);
    half_pow_theta_ = 1.0 + std::pow(0.5, theta);
  }

  uint64_t operator()(std::mt19937_64& rng) const {
    double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
    double uz = u * zeta_n_;
    if (uz < 1.0) return 0;
    if (uz < half_pow_theta_) return 1;
    uint64_t v = static_cast<uint64_t>(static_cast<double>(n_) * std::pow(eta_ * u - eta_ + 1.0, alpha_));
    return v >= n_ ? n_ - 1 : v;
  }

 private:
  static double Zeta(uint64_t n, double theta) {
    double sum = 0;
    for (uint64_t i = 1; i <= n; ++i) sum += 1.0 / std::pow(static_cast<double>(i), theta);
    return sum;
  }

  uint64_t n_;
  double theta_;
  double zeta_n_, alpha_, eta_, half_pow_theta_;
};

}  // namespace caracal::bench
