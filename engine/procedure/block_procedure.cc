#include "engine/procedure/block_procedure.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <fmt/format.h>

#include "engine/types/errors.h"

namespace caracal::engine {

namespace {

class DigestBuilder {
 public:
  DigestBuilder() : state_(XXH3_createState()) { XXH3_128bits_reset(state_); }
  ~DigestBuilder() { XXH3_freeState(state_); }
  DigestBuilder(const DigestBuilder&) = delete;
  DigestBuilder& operator=(const DigestBuilder&) = delete;
  void Bytes(const void* p, size_t n) { XXH3_128bits_update(state_, p, n); }
  void Int(int64_t v) { Bytes(&v, sizeof v); }
  void Text(const std::string& s) {
    Int(static_cast<int64_t>(s.size()));
    Bytes(s.data(), s.size());
  }
  void Add(const Value& v) {
    Int(static_cast<int64_t>(v.kind()));
    if (v.is_null()) return;
    if (v.kind() == Value::Kind::kArray) {
      Int(static_cast<int64_t>(v.as_array().size()));
      for (const Value& e : v.as_array()) Add(e);
      return;
    }
    Text(v.ToText());
  }
  OutcomeDigest Finish() {
    XXH128_hash_t h = XXH3_128bits_digest(state_);
    return {h.low64, h.high64};
  }

 private:
  XXH3_state_t* state_;
};

// The part's view of the block's declaration: its own input, scratch and attempt state,
// the block's everything else.
class PartDeclareContext final : public DeclareContext {
 public:
  PartDeclareContext(DeclareContext& block, uint32_t part, const TxnInput& input, std::vector<Value>& scratch,
                     std::any& attempt)
      : block_(block), part_(part), input_(input), scratch_(scratch), attempt_(attempt) {}
  const TxnInput& input() const override { return input_; }
  Table& table(TableId id) override { return block_.table(id); }
  uint64_t serial_id() const override { return block_.serial_id(); }
  uint32_t block_part() const override { return part_; }
  void DeclareWrite(TableId table, const Key& key, WriteKind kind) override { block_.DeclareWrite(table, key, kind); }
  bool DeclareInsertOnce(TableId table, const Key& key) override { return block_.DeclareInsertOnce(table, key); }
  int DeclareRange(TableId table, const Key& lo, const Key& hi, RangeKind kind) override {
    return block_.DeclareRange(table, lo, hi, kind);
  }
  void DeclareRowUpdate(TableId table, const Key& key, int weight) override { block_.DeclareRowUpdate(table, key, weight); }
  void DeclareIndexEntry(TableId table, int index, const Key& index_key, const Key& primary_key) override {
    block_.DeclareIndexEntry(table, index, index_key, primary_key);
  }
  void DeclareIndexUnknown(TableId table, int index, const Key& lo, const Key& hi) override {
    block_.DeclareIndexUnknown(table, index, lo, hi);
  }
  void Prefetch(TableId table, const Key& key) override { block_.Prefetch(table, key); }
  const RowValue* ReadCommitted(TableId table, const Key& key) override { return block_.ReadCommitted(table, key); }
  void ScanCommitted(TableId table, const Key& lo, const Key& hi,
                     const std::function<bool(const Key&, const RowValue&)>& visit) override {
    block_.ScanCommitted(table, lo, hi, visit);
  }
  void ScanIndexCommitted(TableId table, int index, const Key& lo, const Key& hi,
                          const std::function<bool(const Key&, const RowValue&)>& visit) override {
    block_.ScanIndexCommitted(table, index, lo, hi, visit);
  }
  std::vector<Value>& scratch() override { return scratch_; }
  std::any& attempt_state() override { return attempt_; }
  WorkerScratch& worker_scratch() override { return block_.worker_scratch(); }

 private:
  DeclareContext& block_;
  uint32_t part_;
  const TxnInput& input_;
  std::vector<Value>& scratch_;
  std::any& attempt_;
};

// The part's view of the block's execution: reads and writes are the block's (so a part
// sees the parts before it); its results, row count, notices and errors are kept as its
// outcome; it does not publish (only the block may decide to keep its writes).
class PartExecContext final : public ExecContext {
 public:
  PartExecContext(ExecContext& block, uint32_t part, const BlockPart& spec, const std::vector<Value>& scratch,
                  std::any& attempt, BlockPartOutcome& outcome)
      : block_(block), part_(part), input_(spec.input), recorded_(spec.execution_draws), scratch_(scratch),
        attempt_(attempt), outcome_(outcome) {}
  bool retried() const { return retried_; }

  const TxnInput& input() const override { return input_; }
  Table& table(TableId id) override { return block_.table(id); }
  uint64_t serial_id() const override { return block_.serial_id(); }
  uint32_t block_part() const override { return part_; }
  const RowValue* Read(TableId table, const Key& key) override { return block_.Read(table, key); }
  void Scan(TableId table, const Key& lo, const Key& hi,
            const std::function<bool(const Key&, const RowValue&)>& visit) override {
    block_.Scan(table, lo, hi, visit);
  }
  void ScanIndex(TableId table, int index, const Key& lo, const Key& hi,
                 const std::function<bool(const Key&, const RowValue&)>& visit) override {
    block_.ScanIndex(table, index, lo, hi, visit);
  }
  const std::vector<Key>& RangeRows(int range_id) override { return block_.RangeRows(range_id); }
  bool Insert(TableId table, const Key& key, RowValuePtr value) override { return block_.Insert(table, key, std::move(value)); }
  void Upsert(TableId table, const Key& key, RowValuePtr value) override { block_.Upsert(table, key, std::move(value)); }
  bool Update(TableId table, const Key& key, RowValuePtr value) override { return block_.Update(table, key, std::move(value)); }
  bool Delete(TableId table, const Key& key) override { return block_.Delete(table, key); }
  RowUpdateFuture ApplyRowUpdate(TableId table, const Key& key, RowUpdateCallback callback, int weight) override {
    return block_.ApplyRowUpdate(table, key, std::move(callback), weight);
  }
  int64_t Savepoint() override { return block_.Savepoint(); }
  void RollbackToSavepoint(int64_t mark) override { block_.RollbackToSavepoint(mark); }
  void ReleaseSavepoint(int64_t mark) override { block_.ReleaseSavepoint(mark); }
  void Publish() override {}
  void Abort(std::string sqlstate, std::string message, ErrorFields fields) override {
    outcome_.aborted = true;
    outcome_.sqlstate = std::move(sqlstate);
    outcome_.message = std::move(message);
    outcome_.error_fields = std::move(fields);
  }
  void Retry() override {
    retried_ = true;
    block_.Retry();
  }
  const std::vector<Value>& scratch() const override { return scratch_; }
  std::any& attempt_state() override { return attempt_; }
  WorkerScratch& worker_scratch() override { return block_.worker_scratch(); }
  int64_t NextVal(std::string_view sequence) override {
    // The value an earlier run of this part drew here, if it drew from this sequence.
    const size_t at = outcome_.draws.size();
    const int64_t v = at < recorded_.size() && recorded_[at].first == sequence ? recorded_[at].second : block_.NextVal(sequence);
    outcome_.draws.emplace_back(std::string(sequence), v);
    return v;
  }
  void Notice(std::string message) override { outcome_.notices.push_back(std::move(message)); }
  void Emit(std::vector<Value> row) override { outcome_.rows.push_back(std::move(row)); }
  void SetRowCount(int64_t rows) override { outcome_.row_count = rows; }

 private:
  ExecContext& block_;
  uint32_t part_;
  const TxnInput& input_;
  const std::vector<std::pair<std::string, int64_t>>& recorded_;
  const std::vector<Value>& scratch_;
  std::any& attempt_;
  BlockPartOutcome& outcome_;
  bool retried_ = false;
};

// The parts' scratches, kept in the block's: per part, its length, then its values.
std::vector<std::vector<Value>> SplitScratch(const std::vector<Value>& all, size_t parts) {
  std::vector<std::vector<Value>> out(parts);
  size_t at = 0;
  for (size_t p = 0; p < parts && at < all.size(); ++p) {
    const auto n = static_cast<size_t>(all[at++].as_int());
    out[p].assign(all.begin() + static_cast<std::ptrdiff_t>(at), all.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
  }
  return out;
}

[[noreturn]] void BadInput() { throw ApiMisuse("a transaction block's input is malformed"); }

}  // namespace

OutcomeDigest BlockPartOutcome::Digest() const {
  DigestBuilder d;
  d.Int(aborted ? 1 : 0);
  if (aborted) {
    d.Text(sqlstate);
    d.Text(message);
  }
  d.Int(row_count);
  d.Int(static_cast<int64_t>(rows.size()));
  for (const std::vector<Value>& row : rows) {
    d.Int(static_cast<int64_t>(row.size()));
    for (const Value& v : row) d.Add(v);
  }
  d.Int(static_cast<int64_t>(notices.size()));
  for (const std::string& n : notices) d.Text(n);
  return d.Finish();
}

BlockProcedure::BlockProcedure(std::vector<std::shared_ptr<const Procedure>> parts, BlockMode mode, std::string log_identity)
    : parts_(std::move(parts)), mode_(mode), log_identity_(std::move(log_identity)) {}

TxnInput BlockProcedure::EncodeInput(const std::vector<BlockPart>& parts, int64_t timestamp) {
  // args: the block's timestamp, the part count, then per part: argument count, arguments, drawn-value count (-1:
  // not drawn yet), execution-draw count and (sequence, value) pairs, whether a digest is
  // expected and its two halves. The drawn values follow one another in sequence_values.
  TxnInput in;
  in.args.push_back(Value::Int(timestamp));
  in.args.push_back(Value::Int(static_cast<int64_t>(parts.size())));
  for (const BlockPart& p : parts) {
    in.args.push_back(Value::Int(static_cast<int64_t>(p.input.args.size())));
    in.args.insert(in.args.end(), p.input.args.begin(), p.input.args.end());
    in.args.push_back(Value::Int(p.sequenced ? static_cast<int64_t>(p.input.sequence_values.size()) : -1));
    in.args.push_back(Value::Int(static_cast<int64_t>(p.execution_draws.size())));
    for (const auto& [sequence, value] : p.execution_draws) {
      in.args.push_back(Value::String(sequence));
      in.args.push_back(Value::Int(value));
    }
    in.args.push_back(Value::Int(!p.expected ? 0 : p.predicted ? 2 : 1));
    const OutcomeDigest d = p.expected.value_or(OutcomeDigest{});
    in.args.push_back(Value::Int(static_cast<int64_t>(d.lo)));
    in.args.push_back(Value::Int(static_cast<int64_t>(d.hi)));
    if (p.sequenced) in.sequence_values.insert(in.sequence_values.end(), p.input.sequence_values.begin(), p.input.sequence_values.end());
  }
  return in;
}

BlockProcedure::Decoded BlockProcedure::Decode(const TxnInput& input) const {
  Decoded out;
  const std::vector<Value>& a = input.args;
  size_t at = 0, seq = 0;
  auto next_int = [&]() -> int64_t {
    if (at >= a.size() || a[at].kind() != Value::Kind::kInt) BadInput();
    return a[at++].as_int();
  };
  out.timestamp = next_int();
  const int64_t n = next_int();
  if (n != static_cast<int64_t>(parts_.size())) BadInput();
  for (int64_t p = 0; p < n; ++p) {
    BlockPart part;
    const int64_t nargs = next_int();
    if (nargs < 0 || at + static_cast<size_t>(nargs) > a.size()) BadInput();
    part.input.args.assign(a.begin() + static_cast<std::ptrdiff_t>(at), a.begin() + static_cast<std::ptrdiff_t>(at + nargs));
    at += static_cast<size_t>(nargs);
    const int64_t nseq = next_int();
    if (nseq >= 0) {
      if (seq + static_cast<size_t>(nseq) > input.sequence_values.size()) BadInput();
      part.input.sequence_values.assign(input.sequence_values.begin() + static_cast<std::ptrdiff_t>(seq),
                                        input.sequence_values.begin() + static_cast<std::ptrdiff_t>(seq + nseq));
      seq += static_cast<size_t>(nseq);
      part.sequenced = true;
    }
    const int64_t ndraws = next_int();
    for (int64_t k = 0; k < ndraws; ++k) {
      if (at >= a.size() || a[at].kind() != Value::Kind::kString) BadInput();
      std::string sequence = a[at++].as_string();
      part.execution_draws.emplace_back(std::move(sequence), next_int());
    }
    const int64_t expected = next_int();
    const auto lo = static_cast<uint64_t>(next_int());
    const auto hi = static_cast<uint64_t>(next_int());
    if (expected != 0) part.expected = OutcomeDigest{lo, hi};
    part.predicted = expected == 2;
    out.parts.push_back(std::move(part));
  }
  return out;
}

void BlockProcedure::Sequence(SequenceContext& ctx, TxnInput& input) const {
  // The parts draw from the sequences; their now() is the block's.
  class BlockSequences final : public SequenceContext {
   public:
    BlockSequences(SequenceContext& sequences, int64_t timestamp) : sequences_(sequences), timestamp_(timestamp) {}
    int64_t NextVal(std::string_view sequence) override { return sequences_.NextVal(sequence); }
    int64_t CurrVal(std::string_view sequence) override { return sequences_.CurrVal(sequence); }
    std::optional<int64_t> TransactionTimestamp() const override { return timestamp_; }

   private:
    SequenceContext& sequences_;
    int64_t timestamp_;
  };
  Decoded d = Decode(input);
  BlockSequences sequences(ctx, d.timestamp);
  sequenced_.clear();
  for (size_t p = 0; p < parts_.size(); ++p) {
    BlockPart& part = d.parts[p];
    if (!part.sequenced) {
      parts_[p]->Sequence(sequences, part.input);
      part.sequenced = true;
    }
    sequenced_.push_back(part.input);
  }
  input = EncodeInput(d.parts, d.timestamp);
}

void BlockProcedure::Declare(DeclareContext& ctx) const {
  Decoded d = Decode(ctx.input());
  std::vector<std::vector<Value>> scratches(parts_.size());
  std::vector<std::any> attempts(parts_.size());
  for (size_t p = 0; p < parts_.size(); ++p) {
    PartDeclareContext part(ctx, static_cast<uint32_t>(p), d.parts[p].input, scratches[p], attempts[p]);
    parts_[p]->Declare(part);
  }
  std::vector<Value>& all = ctx.scratch();
  for (const std::vector<Value>& s : scratches) {
    all.push_back(Value::Int(static_cast<int64_t>(s.size())));
    all.insert(all.end(), s.begin(), s.end());
  }
  ctx.attempt_state() = std::move(attempts);
}

void BlockProcedure::Execute(ExecContext& ctx) const {
  Decoded d = Decode(ctx.input());
  std::vector<std::vector<Value>> scratches = SplitScratch(ctx.scratch(), parts_.size());
  std::vector<std::any> attempts(parts_.size());
  if (auto* kept = std::any_cast<std::vector<std::any>>(&ctx.attempt_state()); kept && kept->size() == parts_.size())
    attempts = std::move(*kept);
  outcomes_.clear();
  outcomes_.reserve(parts_.size());
  stopped_at_ = -1;
  for (size_t p = 0; p < parts_.size(); ++p) {
    outcomes_.emplace_back();
    stopped_at_ = static_cast<int>(p);  // until it returns: an exception out of it is its
    PartExecContext part(ctx, static_cast<uint32_t>(p), d.parts[p], scratches[p], attempts[p], outcomes_.back());
    parts_[p]->Execute(part);
    if (part.retried()) return;
    const BlockPartOutcome& outcome = outcomes_.back();
    const std::optional<OutcomeDigest>& expected = d.parts[p].expected;
    if (expected && outcome.Digest() != *expected && d.parts[p].predicted && outcome.aborted) {
      // The client was told this statement succeeded before it ran: its error now.
      ErrorFields fields = outcome.error_fields;
      const std::string where = fmt::format("statement {} of the transaction block, run after it was answered", p + 1);
      fields.context = fields.context.empty() ? where : fields.context + "\n" + where;
      ctx.Abort(outcome.sqlstate, outcome.message, std::move(fields));
      return;
    }
    if (expected && outcome.Digest() != *expected) {
      ctx.Abort("40001", "could not serialize access due to concurrent update",
                {fmt::format("Statement {} of the transaction block now gives a different result than the one it "
                             "gave when it ran.",
                             p + 1),
                 "The transaction might succeed if retried.", ""});
      return;
    }
    if (outcome.aborted) {
      ctx.Abort(outcome.sqlstate, outcome.message, outcome.error_fields);
      return;
    }
  }
  stopped_at_ = -1;
  if (mode_ == BlockMode::kTry) ctx.Abort(std::string(kBlockTryEnd), "transaction block tried");
}

const Procedure& ReplayedBlockTry() {
  class Replayed final : public Procedure {
   public:
    const std::string& name() const override { return name_; }
    void Declare(DeclareContext&) const override {}
    void Execute(ExecContext& ctx) const override { ctx.Abort(std::string(kBlockTryEnd), "transaction block tried"); }
    std::string_view log_identity() const override { return kBlockTryLogIdentity; }

   private:
    std::string name_ = "(transaction block try)";
  };
  static const Replayed replayed;
  return replayed;
}

bool BlockProcedure::needs_epoch_head() const { return !parts_.empty() && parts_.front()->needs_epoch_head(); }

bool BlockProcedure::needs_solo_epoch() const {
  for (size_t p = 0; p < parts_.size(); ++p)
    if (parts_[p]->needs_solo_epoch() || (p > 0 && parts_[p]->needs_epoch_head())) return true;
  return false;
}

}  // namespace caracal::engine
