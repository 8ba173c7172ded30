// WorkerScratch: objects a procedure keeps on one worker from one of its transactions to
// the next, such as buffers it would otherwise allocate every time. A worker runs one
// Declare or Execute at a time (it spins, never switches, while it waits), so its
// scratch needs no locking. Entries live as long as the worker; an owner whose address
// is reused finds the previous owner's object, so what is kept must be only buffers that
// every run resets.
#pragma once

#include <any>
#include <unordered_map>

namespace caracal {

class WorkerScratch {
 public:
  // The object `owner` keeps here: an empty std::any the first time.
  std::any& For(const void* owner) { return objects_[owner]; }

 private:
  std::unordered_map<const void*, std::any> objects_;
};

}  // namespace caracal
