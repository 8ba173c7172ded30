// The input log's records: how each kind of state change is framed and encoded.
//
// A log is a sequence of records, each framed as
//
//   magic u32 | payload length u32 | LSN u64 | type u8 | flags u8 | reserved u16 |
//   payload | checksum u64 (xxHash3 of everything before it in the record)
//
// LSNs count records from 1, without gaps, across segment files. A *unit* is what
// recovery applies all or nothing: an epoch record, a DDL record, or a load (one or more
// kLoadRows records and the kLoadEnd that closes them). A record that closes a unit has
// kEndsUnit in its flags; recovery keeps the log up to the last record that does.
//
// Payloads (integers are LEB128 varints unless noted, strings length-prefixed):
//   kEpoch     epoch u32 | sequences: n, (name, next*, increment*, last*)... |
//              transactions: n, (identity index, attempts, flags u8, args: n, Value...,
//              sequence values: n, int*...)... | identities: n, string...
//              (* zigzag). Transaction i has serial id (epoch, i + 1); the sequence
//              states are those after the epoch's sequencing.
//   kDdl       the statement's SQL text
//   kLoadRows  table name | rows: n, (row bytes)...   (RowValue::bytes())
//   kLoadEnd   table name | total rows of the load
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/log/log_codec.h"
#include "engine/procedure/procedure.h"
#include "engine/storage/sequences.h"

namespace caracal::engine {

// Stored in the log: never renumber.
enum class RecordType : uint8_t { kEpoch = 1, kDdl = 2, kLoadRows = 3, kLoadEnd = 4 };

std::string_view RecordTypeName(RecordType type);

constexpr uint32_t kRecordMagic = 0x4c52434b;  // "KCRL"
constexpr size_t kRecordHeaderBytes = 20;
constexpr size_t kRecordTrailerBytes = 8;
// A record larger than this is damage, not data (loads are cut into smaller records).
constexpr uint32_t kMaxRecordPayload = 1u << 30;

enum RecordFlags : uint8_t { kEndsUnit = 1 };

// Appends one framed record to `out`.
void AppendRecord(std::string& out, RecordType type, uint64_t lsn, std::string_view payload, bool ends_unit);

// One record as read back: the payload points into the reader's buffer.
struct RecordView {
  RecordType type;
  uint64_t lsn;
  bool ends_unit;
  std::string_view payload;
};

// Parses the record at the start of `bytes` if it is whole and its checksum matches:
// returns its size in bytes and fills `record`; 0 with `why` set if it is torn or damaged.
size_t ParseRecord(std::string_view bytes, RecordView& record, std::string& why);

// --- kEpoch ---------------------------------------------------------------------------

struct LoggedTxn {
  uint32_t identity = 0;  // index into EpochRecord::identities
  uint32_t attempts = 1;  // > 1: re-queued by a failed reconnaissance
  bool failed = false;    // failed before running (its Sequence step threw): replay skips it
  TxnInput input;
};

struct EpochRecord {
  uint32_t epoch = 0;
  std::vector<SequenceState> sequences;
  std::vector<LoggedTxn> txns;  // serial order: transaction i has sequence i + 1
  std::vector<std::string> identities;
};

// Encodes an epoch record straight from the engine's transactions, without copying
// their inputs first (the driver encodes while the workers execute).
class EpochRecordBuilder {
 public:
  // `txns`: how many Add calls follow.
  EpochRecordBuilder(uint32_t epoch, const std::vector<SequenceState>& sequences, size_t txns);
  EpochRecordBuilder(const EpochRecordBuilder&) = delete;
  EpochRecordBuilder& operator=(const EpochRecordBuilder&) = delete;
  void Add(std::string_view identity, uint32_t attempts, bool failed, const TxnInput& input);
  std::string Finish();

 private:
  std::string out_;
  ByteWriter w_{out_};
  std::vector<std::string_view> identities_;
  std::unordered_map<std::string_view, uint32_t> index_;
  size_t declared_ = 0, added_ = 0;
};

EpochRecord DecodeEpoch(std::string_view payload, uint64_t lsn);

// --- kDdl -----------------------------------------------------------------------------

std::string EncodeDdl(std::string_view sql);
std::string DecodeDdl(std::string_view payload, uint64_t lsn);

// --- kLoadRows / kLoadEnd ---------------------------------------------------------------

struct LoadRows {
  std::string table;
  std::vector<std::string_view> rows;  // RowValue bytes, pointing into the payload
};

// Builds kLoadRows payloads of about `bytes_per_record` each.
class LoadRowsBuilder {
 public:
  explicit LoadRowsBuilder(std::string table) : table_(std::move(table)) {}
  void Add(std::string_view row_bytes);
  size_t bytes() const { return body_.size(); }
  size_t rows() const { return rows_; }
  // The payload of the rows added since the last Take (and resets).
  std::string Take();

 private:
  std::string table_;
  std::string body_;
  size_t rows_ = 0;
};

LoadRows DecodeLoadRows(std::string_view payload, uint64_t lsn);
std::string EncodeLoadEnd(std::string_view table, uint64_t rows);
std::pair<std::string, uint64_t> DecodeLoadEnd(std::string_view payload, uint64_t lsn);

}  // namespace caracal::engine
