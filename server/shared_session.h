// SharedSession: the one database every connection of the server works on. A
// frontend::Session is not thread-safe, so whatever touches it (starting a statement,
// describing one, reading the catalog) runs under one mutex, and nothing more: a call or
// DML is only *submitted* under the lock, and its connection waits for the result
// outside it, so calls from many connections share epochs. Statements that need the
// engine drained (DDL, SET caracal.*, ad-hoc SELECT) drain it inside Session, holding
// the lock, so they see every call submitted before them.
#pragma once

#include <mutex>
#include <string>
#include <utility>

#include "frontend/session/session.h"

namespace caracal::server {

class SharedSession {
 public:
  explicit SharedSession(frontend::Session& session) : session_(session) {}
  SharedSession(const SharedSession&) = delete;
  SharedSession& operator=(const SharedSession&) = delete;

  // Starts one statement; the caller waits on the result without the lock (a query runs
  // then too: see Session::StartStatement's defer_queries).
  // `block` is the connection's transaction block.
  frontend::PendingResult Start(const planner::ParsedStatement& stmt, const std::string& text, frontend::TransactionBlock& block) {
    std::lock_guard lock(mutex_);
    return session_.StartStatement(stmt, text, true, &block);
  }

  // Runs `f(session)` under the lock (describing, catalog reads).
  template <typename F>
  auto With(F&& f) {
    std::lock_guard lock(mutex_);
    return std::forward<F>(f)(session_);
  }

 private:
  std::mutex mutex_;
  frontend::Session& session_;
};

}  // namespace caracal::server
