// A test-and-test-and-set spin lock for per-row critical sections that last a few
// hundred cycles (inserting into a version array). TryLock lets batch append (the
// contention issue) divert instead of waiting.
#pragma once

#include <atomic>
#include <thread>

namespace caracal::engine {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

class SpinLock {
 public:
  bool TryLock() { return !locked_.load(std::memory_order_relaxed) && !locked_.exchange(true, std::memory_order_acquire); }
  void Lock() {
    for (int spins = 0; !TryLock(); ++spins) {
      if (spins < 64)
        CpuRelax();
      else
        std::this_thread::yield();  // more workers than cores must not starve the holder
    }
  }
  void Unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

class SpinGuard {
 public:
  explicit SpinGuard(SpinLock& lock) : lock_(lock) { lock_.Lock(); }
  ~SpinGuard() { lock_.Unlock(); }
  SpinGuard(const SpinGuard&) = delete;
  SpinGuard& operator=(const SpinGuard&) = delete;

 private:
  SpinLock& lock_;
};

}  // namespace caracal::engine
