// Checkpoints: a consistent image of every table at an epoch boundary, so recovery
// replays only the log after it (the paper has none, §3.6; DESIGN §2).
//
// A checkpoint file (DATADIR/checkpoint/<LSN>.ckpt, named by the last log record it
// contains) is a 32-byte header
//
//   magic "CRCLCKP1" | format version u32 | epoch u32 | LSN u64 | checksum u64
//
// followed by blocks `type u8 | length u32 | payload | checksum u64` (xxHash3 of type,
// length and payload): one kMeta block (the catalog as the DDL statements that built
// it, in order, then every sequence's state), then per table a kTable block (its name)
// and kRows blocks of about 1 MB (RowValue bytes), then a kEnd block (tables and rows
// written, for a last check). It is written to a temporary file, fsynced, renamed into
// place and the directory fsynced: a checkpoint is either wholly there or not at all.
//
// The image is read from the version arrays while later epochs run: the caller pins
// the checkpoint's epoch E (so collection keeps what it reads) and holds the database's
// structure lock shared (so no table or index changes shape); rows are read as of
// serial id (E + 1, 0), which includes bulk loads made while E was the committed epoch.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "engine/storage/database.h"
#include "engine/storage/sequences.h"

namespace caracal::engine {

class Engine;

struct CheckpointMeta {
  uint32_t epoch = 0;  // the image is the state after this epoch...
  uint64_t lsn = 0;    // ...and after every log record up to this LSN (0: none)
  std::vector<std::string> ddl;  // the catalog: DDL statements in the order they ran
  std::vector<SequenceState> sequences;
};

struct CheckpointInfo {
  std::filesystem::path path;
  uint32_t epoch = 0;
  uint64_t lsn = 0;
  uint64_t bytes = 0;
  uint64_t tables = 0;
  uint64_t rows = 0;
  double ms = 0;
};

// Writes a checkpoint of `db` into `dir` as described above and installs it; older
// checkpoint files are deleted once it is in place. `num_tables`: the tables to write
// (those that existed when `meta` was taken). Throws std::system_error on I/O failure
// (nothing is installed then).
CheckpointInfo WriteCheckpoint(const std::filesystem::path& dir, Database& db, const CheckpointMeta& meta,
                               size_t num_tables);

// A checkpoint of a database whose engine keeps running. The constructor, between two
// epochs, pins the committed epoch E, numbers the next epoch E + 2 (so rows bulk-loaded
// from then on carry a later serial id and stay out of the image), copies the sequences,
// lets `capture` fill in the rest of the meta (the catalog's DDL and the LSN of the last
// log record, which the caller must keep in step with what it logs), and takes the
// structure lock shared. Write() then writes the image while epochs go on (DDL that
// changes tables waits until the object is gone). Construct, Write and destroy on one
// thread.
class RunningCheckpoint {
 public:
  RunningCheckpoint(Engine& engine, const std::function<void(CheckpointMeta&)>& capture);
  ~RunningCheckpoint();
  RunningCheckpoint(const RunningCheckpoint&) = delete;
  RunningCheckpoint& operator=(const RunningCheckpoint&) = delete;

  const CheckpointMeta& meta() const { return meta_; }
  CheckpointInfo Write(const std::filesystem::path& dir);

 private:
  Database& db_;
  CheckpointMeta meta_;
  size_t num_tables_ = 0;
  uint32_t pinned_ = 0;
  std::shared_lock<std::shared_mutex> structure_;
};

// The installed checkpoint with the largest LSN in `dir`, if any. Leftover temporary
// files of checkpoints that never finished are deleted.
std::optional<std::filesystem::path> LatestCheckpoint(const std::filesystem::path& dir);

// Reads a checkpoint file: first its meta (so the caller can rebuild the catalog), then
// its rows into the tables of the same names.
class CheckpointReader {
 public:
  // Throws LogFormatError if the file is not a whole, undamaged checkpoint.
  explicit CheckpointReader(const std::filesystem::path& path);
  const CheckpointMeta& meta() const { return meta_; }
  // Loads every row with Database::LoadRow (the tables must exist, with the schemas
  // they had) and returns the rows loaded. Uses up to `threads` threads.
  uint64_t LoadRows(Database& db, int threads = 2);

 private:
  std::filesystem::path path_;
  size_t rows_offset_ = 0;  // where the first table block starts
  CheckpointMeta meta_;
};

}  // namespace caracal::engine
