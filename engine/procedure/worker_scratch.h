// WorkerScratch: objects a procedure keeps on one worker from one of its transactions to
// the next, such as buffers it would otherwise allocate every time. A worker runs one
// Declare or Execute at a time (it spins, never switches, while it waits), so its
// scratch needs no locking.
//
// Contract for owners: what is kept must be only buffers that every run resets, because
// an entry may be dropped at any time (see For) and an owner whose address is reused
// finds the previous owner's object. An owner that holds its object across a call of
// For() must hold it by a shared_ptr of its own.
#pragma once

#include <any>
#include <cstddef>
#include <unordered_map>

namespace caracal::engine {

class WorkerScratch {
 public:
  // Owners kept at most. Procedures are the owners, and dropped or replaced ones never
  // remove their entries (they would have to reach every worker): when a new owner would
  // exceed this, every entry is dropped, and the live owners make theirs again.
  static constexpr size_t kMaxOwners = 1024;

  // The object `owner` keeps here: an empty std::any the first time.
  std::any& For(const void* owner) {
    auto it = objects_.find(owner);
    if (it != objects_.end()) return it->second;
    if (objects_.size() >= kMaxOwners) objects_.clear();
    return objects_[owner];
  }

  size_t owners() const { return objects_.size(); }

 private:
  std::unordered_map<const void*, std::any> objects_;
};

}  // namespace caracal::engine
