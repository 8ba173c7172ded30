#include "engine/log/log_record.h"

#include <fmt/format.h>

namespace caracal::engine {

namespace {

std::string What(uint64_t lsn, RecordType type) {
  return fmt::format("log record {} ({})", lsn, RecordTypeName(type));
}

void PutSequences(ByteWriter& w, const std::vector<SequenceState>& sequences) {
  w.Varint(sequences.size());
  for (const SequenceState& s : sequences) {
    w.Bytes(s.name);
    w.Signed(s.next);
    w.Signed(s.increment);
    w.Signed(s.last);
  }
}

}  // namespace

std::string_view RecordTypeName(RecordType type) {
  switch (type) {
    case RecordType::kEpoch: return "epoch";
    case RecordType::kDdl: return "ddl";
    case RecordType::kLoadRows: return "load rows";
    case RecordType::kLoadEnd: return "load end";
  }
  return "unknown";
}

void AppendRecord(std::string& out, RecordType type, uint64_t lsn, std::string_view payload, bool ends_unit) {
  const size_t start = out.size();
  ByteWriter w(out);
  w.U32(kRecordMagic);
  w.U32(static_cast<uint32_t>(payload.size()));
  w.U64(lsn);
  w.U8(static_cast<uint8_t>(type));
  w.U8(ends_unit ? kEndsUnit : 0);
  w.U8(0);
  w.U8(0);
  w.Raw(payload);
  w.U64(Checksum(std::string_view(out).substr(start)));
}

size_t ParseRecord(std::string_view bytes, RecordView& record, std::string& why) {
  if (bytes.size() < kRecordHeaderBytes) {
    why = fmt::format("torn record header ({} bytes)", bytes.size());
    return 0;
  }
  ByteReader r(bytes.substr(0, kRecordHeaderBytes), "record header");
  const uint32_t magic = r.U32();
  const uint32_t length = r.U32();
  const uint64_t lsn = r.U64();
  const uint8_t type = r.U8();
  const uint8_t flags = r.U8();
  if (magic != kRecordMagic) {
    why = "bad record magic";
    return 0;
  }
  if (length > kMaxRecordPayload) {
    why = fmt::format("impossible record length {}", length);
    return 0;
  }
  const size_t total = kRecordHeaderBytes + length + kRecordTrailerBytes;
  if (bytes.size() < total) {
    why = fmt::format("torn record: {} of {} bytes", bytes.size(), total);
    return 0;
  }
  ByteReader trailer(bytes.substr(total - kRecordTrailerBytes, kRecordTrailerBytes), "record trailer");
  if (trailer.U64() != Checksum(bytes.substr(0, total - kRecordTrailerBytes))) {
    why = "record checksum mismatch";
    return 0;
  }
  if (type < static_cast<uint8_t>(RecordType::kEpoch) || type > static_cast<uint8_t>(RecordType::kLoadEnd)) {
    why = fmt::format("unknown record type {}", type);
    return 0;
  }
  record.type = static_cast<RecordType>(type);
  record.lsn = lsn;
  record.ends_unit = (flags & kEndsUnit) != 0;
  record.payload = bytes.substr(kRecordHeaderBytes, length);
  return total;
}

// --- kEpoch ---------------------------------------------------------------------------

EpochRecordBuilder::EpochRecordBuilder(uint32_t epoch, const std::vector<SequenceState>& sequences, size_t txns)
    : declared_(txns) {
  out_.reserve(64 + txns * 48);
  w_.U32(epoch);
  PutSequences(w_, sequences);
  w_.Varint(txns);
}

void EpochRecordBuilder::Add(std::string_view identity, uint32_t attempts, bool failed, const TxnInput& input) {
  auto [it, inserted] = index_.try_emplace(identity, static_cast<uint32_t>(identities_.size()));
  if (inserted) identities_.push_back(identity);
  w_.Varint(it->second);
  w_.Varint(attempts);
  w_.U8(failed ? 1 : 0);
  w_.Varint(input.args.size());
  for (const Value& v : input.args) w_.Val(v);
  w_.Varint(input.sequence_values.size());
  for (int64_t s : input.sequence_values) w_.Signed(s);
  ++added_;
}

std::string EpochRecordBuilder::Finish() {
  if (added_ != declared_)
    throw std::logic_error(fmt::format("epoch record: {} transactions declared, {} added", declared_, added_));
  w_.Varint(identities_.size());
  for (std::string_view id : identities_) w_.Bytes(id);
  return std::move(out_);
}

EpochRecord DecodeEpoch(std::string_view payload, uint64_t lsn) {
  ByteReader r(payload, What(lsn, RecordType::kEpoch));
  EpochRecord e;
  e.epoch = r.U32();
  size_t n = r.Count(4);
  e.sequences.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    SequenceState s;
    s.name = std::string(r.Bytes());
    s.next = r.Signed();
    s.increment = r.Signed();
    s.last = r.Signed();
    e.sequences.push_back(std::move(s));
  }
  n = r.Count(5);
  e.txns.resize(n);
  for (LoggedTxn& t : e.txns) {
    t.identity = static_cast<uint32_t>(r.Varint());
    t.attempts = static_cast<uint32_t>(r.Varint());
    t.failed = r.U8() != 0;
    size_t args = r.Count(1);
    t.input.args.reserve(args);
    for (size_t a = 0; a < args; ++a) t.input.args.push_back(r.Val());
    size_t seqs = r.Count(1);
    t.input.sequence_values.reserve(seqs);
    for (size_t s = 0; s < seqs; ++s) t.input.sequence_values.push_back(r.Signed());
  }
  n = r.Count(1);
  e.identities.reserve(n);
  for (size_t i = 0; i < n; ++i) e.identities.emplace_back(r.Bytes());
  r.ExpectDone();
  for (const LoggedTxn& t : e.txns)
    if (t.identity >= e.identities.size()) r.Fail("procedure index out of range");
  return e;
}

// --- kDdl -----------------------------------------------------------------------------

std::string EncodeDdl(std::string_view sql) {
  std::string out;
  ByteWriter(out).Bytes(sql);
  return out;
}

std::string DecodeDdl(std::string_view payload, uint64_t lsn) {
  ByteReader r(payload, What(lsn, RecordType::kDdl));
  std::string sql(r.Bytes());
  r.ExpectDone();
  return sql;
}

// --- kLoadRows / kLoadEnd ---------------------------------------------------------------

void LoadRowsBuilder::Add(std::string_view row_bytes) {
  ByteWriter(body_).Bytes(row_bytes);
  ++rows_;
}

std::string LoadRowsBuilder::Take() {
  std::string out;
  out.reserve(body_.size() + table_.size() + 16);
  ByteWriter w(out);
  w.Bytes(table_);
  w.Varint(rows_);
  w.Raw(body_);
  body_.clear();
  rows_ = 0;
  return out;
}

LoadRows DecodeLoadRows(std::string_view payload, uint64_t lsn) {
  ByteReader r(payload, What(lsn, RecordType::kLoadRows));
  LoadRows out;
  out.table = std::string(r.Bytes());
  size_t n = r.Count(1);
  out.rows.reserve(n);
  for (size_t i = 0; i < n; ++i) out.rows.push_back(r.Bytes());
  r.ExpectDone();
  return out;
}

std::string EncodeLoadEnd(std::string_view table, uint64_t rows) {
  std::string out;
  ByteWriter w(out);
  w.Bytes(table);
  w.Varint(rows);
  return out;
}

std::pair<std::string, uint64_t> DecodeLoadEnd(std::string_view payload, uint64_t lsn) {
  ByteReader r(payload, What(lsn, RecordType::kLoadEnd));
  std::string table(r.Bytes());
  uint64_t rows = r.Varint();
  r.ExpectDone();
  return {std::move(table), rows};
}

}  // namespace caracal::engine
