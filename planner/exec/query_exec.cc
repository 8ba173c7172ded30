#include "planner/exec/query_exec.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <unordered_map>

#include "planner/exec/datum_order.h"
#include "planner/exec/snapshot_source.h"
#include "planner/expr/aggregate.h"
#include "planner/expr/expr_eval.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

using Row = std::vector<Datum>;
using Emit = std::function<bool(Row&)>;

// Hash of a non-null datum consistent with CompareForType(type) == 0.
size_t HashDatum(const Datum& d, const SqlType& type) {
  switch (d.kind) {
    case Datum::Kind::kNull: return 0x9e3779b9;
    case Datum::Kind::kBool:
    case Datum::Kind::kInt:
    case Datum::Kind::kTimestamp: return std::hash<int64_t>()(d.i);
    case Datum::Kind::kInterval: {
      // Equal intervals ('1 day', '24 hours') hash alike: their length with 30-day months.
      __int128 span = static_cast<__int128>(d.i) + (static_cast<__int128>(d.months) * 30 + d.days) * datetime::kUsPerDay;
      return std::hash<int64_t>()(static_cast<int64_t>(span)) ^ (std::hash<int64_t>()(static_cast<int64_t>(span >> 64)) << 1);
    }
    case Datum::Kind::kFloat: return std::hash<double>()(d.f == 0 ? 0.0 : d.f);
    case Datum::Kind::kNumeric: {
      // Equal numerics of different scales (1.0, 1.00) hash alike: trailing zeros dropped.
      __int128 m = d.n.mantissa();
      int scale = d.n.scale();
      while (scale > 0 && m % 10 == 0) {
        m /= 10;
        --scale;
      }
      return std::hash<int64_t>()(static_cast<int64_t>(m)) ^ (std::hash<int64_t>()(static_cast<int64_t>(m >> 64)) << 1) ^
             static_cast<size_t>(scale);
    }
    case Datum::Kind::kString: {
      std::string_view s = d.s;
      if (type.id == TypeId::kBpchar)
        while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
      return std::hash<std::string_view>()(s);
    }
    case Datum::Kind::kArray: {
      size_t h = d.array->size();
      for (const Datum& e : *d.array) h = h * 31 + HashDatum(e, type.Element());
      return h;
    }
  }
  return 0;
}

// generate_series(start, stop [, step]) over integers, or over timestamps with an
// interval step: each value to `each` until it returns false (then false). No values
// when an argument is NULL.
template <typename F>
bool GenerateSeries(const std::vector<Datum>& args, F&& each) {
  for (const Datum& a : args)
    if (a.is_null()) return true;
  if (args.size() > 2 && args[2].kind == Datum::Kind::kInterval) {
    const datetime::Interval step = args[2].as_interval();
    const int sign = datetime::CompareIntervals(step, {});
    if (sign == 0) throw SqlError(sqlstate::kInvalidParameterValue, "step size cannot equal zero");
    for (int64_t v = args[0].i; sign > 0 ? v <= args[1].i : v >= args[1].i;) {
      if (!each(Datum::Timestamp(v))) return false;
      const int64_t next = datetime::AddInterval(v, step);
      if (next == v) break;  // an infinite start does not move
      v = next;
    }
    return true;
  }
  const int64_t start = args[0].i, stop = args[1].i, step = args.size() > 2 ? args[2].i : 1;
  if (step == 0) throw SqlError(sqlstate::kInvalidParameterValue, "step size cannot equal zero");
  for (__int128 v = start; step > 0 ? v <= stop : v >= stop; v += step)
    if (!each(Datum::Int(static_cast<int64_t>(v)))) return false;
  return true;
}

// Appends an exact encoding of `d` (kind and bits: 1.0 and 1.00, 'a' and 'a ' differ),
// for memo keys, which must tell apart values a subquery could print differently.
void AppendExact(std::string& out, const Datum& d) {
  out.push_back(static_cast<char>(d.kind));
  auto raw = [&](const auto& v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
  switch (d.kind) {
    case Datum::Kind::kNull: break;
    case Datum::Kind::kBool:
    case Datum::Kind::kInt:
    case Datum::Kind::kTimestamp: raw(d.i); break;
    case Datum::Kind::kInterval:
      raw(d.i);
      raw(d.months);
      raw(d.days);
      break;
    case Datum::Kind::kFloat: raw(d.f); break;
    case Datum::Kind::kNumeric: {
      const __int128 m = d.n.mantissa();
      const int scale = d.n.scale();
      raw(m);
      raw(scale);
      break;
    }
    case Datum::Kind::kString: {
      const size_t n = d.s.size();
      raw(n);
      out += d.s;
      break;
    }
    case Datum::Kind::kArray: {
      const size_t n = d.array->size();
      raw(n);
      for (const Datum& e : *d.array) AppendExact(out, e);
      break;
    }
  }
}

// Rows keyed by value: Find / Insert return the index of the key's entry.
class RowTable {
 public:
  explicit RowTable(std::vector<SqlType> types) : types_(std::move(types)) {}

  std::optional<size_t> Find(const Row& key) const {
    auto [lo, hi] = index_.equal_range(Hash(key));
    for (auto it = lo; it != hi; ++it)
      if (Equal(keys_[it->second], key)) return it->second;
    return std::nullopt;
  }
  // The key's entry, added if new (`added` says which).
  size_t Insert(const Row& key, bool& added) {
    const size_t h = Hash(key);
    auto [lo, hi] = index_.equal_range(h);
    for (auto it = lo; it != hi; ++it)
      if (Equal(keys_[it->second], key)) {
        added = false;
        return it->second;
      }
    keys_.push_back(key);
    index_.emplace(h, keys_.size() - 1);
    added = true;
    return keys_.size() - 1;
  }
  const Row& key(size_t i) const { return keys_[i]; }
  size_t size() const { return keys_.size(); }

 private:
  size_t Hash(const Row& key) const {
    size_t h = 0;
    for (size_t i = 0; i < key.size(); ++i) h = h * 1000003 ^ HashDatum(key[i], types_[i]);
    return h;
  }
  bool Equal(const Row& a, const Row& b) const {
    for (size_t i = 0; i < a.size(); ++i)
      if (!NotDistinct(a[i], b[i], types_[i])) return false;
    return true;
  }
  std::vector<SqlType> types_;
  std::vector<Row> keys_;
  std::unordered_multimap<size_t, size_t> index_;
};

struct Env {
  std::span<const Datum> outer;
  std::span<const Datum> left;  // a parameterized node's left tuple
};

class Executor final : public SubqueryRunner {
 public:
  Executor(const QueryPlan& plan, RowSource& source, std::span<const Datum> variables)
      : plan_(plan), source_(source), variables_(variables) {}

  // Runs `node`; false when a consumer stopped the run.
  bool Run(const QueryNode& node, const Env& env, const Emit& emit) const;

  void Run(int subplan, std::span<const Datum> params, const std::function<bool(std::span<const Datum>)>& row) const override {
    const QueryNode& node = *plan_.subplans[static_cast<size_t>(subplan)];
    if (plan_.subplan_correlated[static_cast<size_t>(subplan)]) {
      // Memoized by the correlation values (the snapshot does not change during the query):
      // a subquery keyed by a column with few distinct values runs once per value.
      Memo& state = memos_[subplan];
      // Memoizing pays only when values repeat: after 256 runs with fewer than half of them
      // hits, the subplan just runs.
      if (state.disabled || (state.lookups >= 256 && state.hits * 2 < state.lookups)) {
        if (!state.disabled) state = Memo{.disabled = true};
        Run(node, Env{params, {}}, [&](Row& r) { return row(r); });
        return;
      }
      ++state.lookups;
      auto& memo = state.entries;
      std::string key;
      for (const Datum& d : params) AppendExact(key, d);
      auto hit = memo.find(key);
      size_t given = 0;  // rows this consumer already has from the memo
      if (hit != memo.end()) {
        // The rows a run gave until its consumer stopped: enough unless this one wants more.
        ++state.hits;
        const MemoEntry& entry = hit->second;
        for (const Row& r : entry.rows) {
          if (!row(r)) return;
          ++given;
        }
        if (entry.complete) return;
        memo.erase(hit);
      } else if (memo.size() >= kMemoEntries) {
        Run(node, Env{params, {}}, [&](Row& r) { return row(r); });
        return;
      }
      MemoEntry& entry = memo[key];
      size_t produced = 0;
      entry.complete = Run(node, Env{params, {}}, [&](Row& r) {
        entry.rows.push_back(r);
        return produced++ < given || row(r);
      });
      return;
    }
    for (const Row& r : Cached(subplan))
      if (!row(r)) return;
  }

  std::optional<Datum> AnyEquals(int subplan, const Datum& value, const SqlType& type) const override {
    if (plan_.subplan_correlated[static_cast<size_t>(subplan)]) return std::nullopt;
    auto& set = hashed_[subplan];
    if (!set) {
      set.emplace(std::vector<SqlType>{type});
      for (const Row& r : Cached(subplan)) {
        bool added = false;
        set->Insert(Row{r[0]}, added);
      }
    }
    if (set->size() == 0) return Datum::Bool(false);
    if (value.is_null()) return Datum::Null();
    if (set->Find(Row{value})) return Datum::Bool(true);
    if (set->Find(Row{Datum::Null()})) return Datum::Null();
    return Datum::Bool(false);
  }

 private:
  EvalContext Ctx(const Env& env) const {
    EvalContext ctx;
    ctx.outer = env.outer;
    ctx.variables = variables_;
    ctx.subqueries = this;
    ctx.routines = source_.routines;
    return ctx;
  }
  const std::vector<Row>& Cached(int subplan) const {
    auto it = cache_.find(subplan);
    if (it != cache_.end()) return it->second;
    std::vector<Row> rows;
    Run(*plan_.subplans[static_cast<size_t>(subplan)], Env{}, [&](Row& r) {
      rows.push_back(r);
      return true;
    });
    return cache_.emplace(subplan, std::move(rows)).first->second;
  }
  std::vector<Row> Collect(const QueryNode& node, const Env& env) const {
    std::vector<Row> rows;
    Run(node, env, [&](Row& r) {
      rows.push_back(std::move(r));
      return true;
    });
    return rows;
  }

  bool RunScan(const QueryNode& node, const Env& env, const Emit& emit) const;
  bool RunFunction(const QueryNode& node, const Env& env, const Emit& emit) const;
  bool RunJoin(const QueryNode& node, const Env& env, const Emit& emit) const;
  bool RunAggregate(const QueryNode& node, const Env& env, const Emit& emit) const;
  bool RunWindow(const QueryNode& node, const Env& env, const Emit& emit) const;
  bool RunSetOp(const QueryNode& node, const Env& env, const Emit& emit) const;
  bool RunRecursive(const QueryNode& node, const Env& env, const Emit& emit) const;
  bool RunProjectSet(const QueryNode& node, const Env& env, const Emit& emit) const;
  // `keep`: only the first `keep` rows in order are wanted (a LIMIT above: top-N).
  bool RunSort(const QueryNode& node, const Env& env, const Emit& emit, std::optional<size_t> keep) const;

  // A correlated subplan's results by its correlation values (exactly encoded), up to
  // kMemoEntries of them per subplan.
  static constexpr size_t kMemoEntries = 100000;

  const QueryPlan& plan_;
  RowSource& source_;
  const std::span<const Datum> variables_;
  struct MemoEntry {
    std::vector<Row> rows;  // as many as the first run's consumer took
    bool complete = false;  // every row of the subplan
  };
  struct Memo {
    bool disabled = false;
    size_t lookups = 0, hits = 0;
    std::unordered_map<std::string, MemoEntry> entries;
  };
  mutable std::map<int, Memo> memos_;
  mutable std::map<int, std::vector<Row>> cache_;                 // uncorrelated subplans
  mutable std::map<int, std::optional<RowTable>> hashed_;         // ... hashed for = ANY
  mutable std::map<int, std::vector<Row>> ctes_;                  // materialized CTEs
  mutable std::map<int, std::vector<Row>> work_tables_;           // recursive CTEs' last rows
};

bool Executor::RunScan(const QueryNode& node, const Env& env, const Emit& emit) const {
  const TableInfo& table = *node.table;
  EvalContext ctx = Ctx(env);
  ctx.tuple = env.left;
  ctx.schema = &source_.schema(table.id);
  KeyRange range = ResolveAccessPath(node.access, table, ctx);
  if (range.empty) return true;
  const Expr* filter = range.exact && node.has_residual ? node.residual.get() : node.filter.get();
  Row out(node.columns.size());
  bool go = true;
  auto visit = [&](const engine::Key&, const engine::RowValue& row) {
    ctx.row = &row;
    if (filter && !EvalCondition(*filter, ctx)) return true;
    out.resize(node.columns.size());  // a consumer may have moved the last one away
    for (size_t i = 0; i < node.columns.size(); ++i)
      DatumFromRowInto(row, node.columns[i], ctx.schema->column(node.columns[i]), out[i]);
    go = emit(out);
    return go;
  };
  if (range.point) {
    if (const engine::RowValue* row = source_.Read(table.id, range.lo)) visit(range.lo, *row);
  } else if (node.access.kind == AccessPath::Kind::kIndexScan) {
    source_.ScanIndex(table.id, node.access.index, range.lo, range.hi, visit);
  } else {
    source_.Scan(table.id, range.lo, range.hi, visit);
  }
  return go;
}

bool Executor::RunFunction(const QueryNode& node, const Env& env, const Emit& emit) const {
  EvalContext ctx = Ctx(env);
  ctx.tuple = env.left;
  std::vector<Datum> args;
  for (const auto& a : node.args) args.push_back(Eval(*a, ctx));
  Row out;
  if (node.function == TableFunction::kGenerateSeries) {
    int64_t n = 0;
    return GenerateSeries(args, [&](Datum v) {
      out.assign({std::move(v)});
      if (node.ordinality) out.push_back(Datum::Int(++n));
      return emit(out);
    });
  }
  size_t rows = 0;
  for (const Datum& a : args) rows = std::max(rows, a.is_null() ? size_t{0} : a.array->size());
  for (size_t i = 0; i < rows; ++i) {
    out.clear();
    for (const Datum& a : args) out.push_back(!a.is_null() && i < a.array->size() ? (*a.array)[i] : Datum::Null());
    if (node.ordinality) out.push_back(Datum::Int(static_cast<int64_t>(i + 1)));
    if (!emit(out)) return false;
  }
  return true;
}

bool Executor::RunJoin(const QueryNode& node, const Env& env, const Emit& emit) const {
  const QueryNode& left = *node.children[0];
  const QueryNode& right = *node.children[1];
  const size_t right_width = right.types.size();
  EvalContext ctx = Ctx(env);
  Row out;
  // Emits left ++ right (right null: NULL-extended) with the computed columns; false: stop.
  auto produce = [&](const Row* l, const Row* r) {
    out.clear();
    if (l) out.insert(out.end(), l->begin(), l->end());
    else out.resize(left.types.size());
    if (r) out.insert(out.end(), r->begin(), r->end());
    else out.resize(out.size() + right_width);
    if (!node.computed.empty()) {
      const size_t joined = out.size();
      std::vector<Datum> extra;
      ctx.tuple = std::span<const Datum>(out.data(), joined);
      for (const auto& c : node.computed) extra.push_back(Eval(*c, ctx));
      for (auto& d : extra) out.push_back(std::move(d));
    }
    return emit(out);
  };
  // Whether the pair satisfies the join condition.
  Row pair;
  auto matches = [&](const Row& l, const Row& r) {
    if (!node.condition) return true;
    pair.clear();
    pair.insert(pair.end(), l.begin(), l.end());
    pair.insert(pair.end(), r.begin(), r.end());
    ctx.tuple = pair;
    return EvalCondition(*node.condition, ctx);
  };

  if (right.parameterized) {
    return Run(left, env, [&](Row& l) {
      // `l` stays put while the right side runs: its buffer belongs to the left node.
      bool matched = false, go = true;
      Run(right, Env{env.outer, l}, [&](Row& r) {
        if (!matches(l, r)) return true;
        matched = true;
        go = produce(&l, &r);
        return go;
      });
      if (!go) return false;
      if (!matched && node.join == JoinKind::kLeft) return produce(&l, nullptr);
      return true;
    });
  }

  std::vector<SqlType> key_types;
  for (const auto& k : node.left_keys) key_types.push_back(k->type);
  auto key_hash = [&](const Row& key) {
    size_t h = 0;
    for (size_t i = 0; i < key.size(); ++i) h = h * 1000003 ^ HashDatum(key[i], key_types[i]);
    return h;
  };
  // The keys of `row` by `keys` (false: one is NULL, which matches nothing).
  auto key_of = [&](const Row& row, const std::vector<ExprPtr>& keys, Row& key) {
    ctx.tuple = row;
    key.clear();
    for (const auto& k : keys) {
      key.push_back(Eval(*k, ctx));
      if (key.back().is_null()) return false;
    }
    return true;
  };
  if (node.method == JoinMethod::kHash && node.build_left) {
    // An inner join whose left side is the smaller: hashed, and probed by the right.
    std::vector<Row> built = Collect(left, env);
    std::vector<Row> built_keys(built.size());
    std::unordered_multimap<size_t, size_t> table;
    for (size_t i = 0; i < built.size(); ++i)
      if (key_of(built[i], node.left_keys, built_keys[i])) table.emplace(key_hash(built_keys[i]), i);
    Row key;
    std::vector<size_t> candidates;
    return Run(right, Env{env.outer, {}}, [&](Row& r) {
      if (!key_of(r, node.right_keys, key)) return true;
      candidates.clear();
      auto [lo, hi] = table.equal_range(key_hash(key));
      for (auto it = lo; it != hi; ++it) {
        bool equal = true;
        for (size_t k = 0; k < key.size() && equal; ++k) equal = CompareForType(key[k], built_keys[it->second][k], key_types[k]) == 0;
        if (equal) candidates.push_back(it->second);
      }
      std::sort(candidates.begin(), candidates.end());
      for (size_t i : candidates)
        if (matches(built[i], r) && !produce(&built[i], &r)) return false;
      return true;
    });
  }
  std::vector<Row> inner = Collect(right, Env{env.outer, {}});
  std::vector<bool> inner_matched(node.join == JoinKind::kFull ? inner.size() : 0, false);
  std::unordered_multimap<size_t, size_t> hash;
  std::vector<Row> inner_keys;
  if (node.method == JoinMethod::kHash) {
    inner_keys.resize(inner.size());
    for (size_t i = 0; i < inner.size(); ++i) {
      ctx.tuple = inner[i];
      bool has_null = false;
      for (const auto& k : node.right_keys) {
        inner_keys[i].push_back(Eval(*k, ctx));
        has_null = has_null || inner_keys[i].back().is_null();
      }
      if (!has_null) hash.emplace(key_hash(inner_keys[i]), i);
    }
  }
  bool go = Run(left, env, [&](Row& l) {
    bool matched = false;
    auto consider = [&](size_t i) {
      if (!matches(l, inner[i])) return true;
      matched = true;
      if (node.join == JoinKind::kFull) inner_matched[i] = true;
      return produce(&l, &inner[i]);
    };
    if (node.method == JoinMethod::kHash) {
      Row key;
      ctx.tuple = l;
      bool has_null = false;
      for (const auto& k : node.left_keys) {
        key.push_back(Eval(*k, ctx));
        has_null = has_null || key.back().is_null();
      }
      if (!has_null) {
        // Candidates in build order, so that equal keys keep the right side's order.
        std::vector<size_t> candidates;
        auto [lo, hi] = hash.equal_range(key_hash(key));
        for (auto it = lo; it != hi; ++it) {
          bool equal = true;
          for (size_t k = 0; k < key.size() && equal; ++k)
            equal = CompareForType(key[k], inner_keys[it->second][k], key_types[k]) == 0;
          if (equal) candidates.push_back(it->second);
        }
        std::sort(candidates.begin(), candidates.end());
        for (size_t i : candidates)
          if (!consider(i)) return false;
      }
    } else {
      for (size_t i = 0; i < inner.size(); ++i)
        if (!consider(i)) return false;
    }
    if (!matched && node.join != JoinKind::kInner) return produce(&l, nullptr);
    return true;
  });
  if (!go) return false;
  if (node.join == JoinKind::kFull)
    for (size_t i = 0; i < inner.size(); ++i)
      if (!inner_matched[i] && !produce(nullptr, &inner[i])) return false;
  return true;
}

// One group per distinct key. With grouping sets, each input row feeds one group per set:
// its keys, those the set does not group by NULL, and the set's number (a NULL key and a
// rolled-up one are different groups). Without GROUP BY, and for an empty grouping set,
// the group exists even without input rows, as in PostgreSQL.
bool Executor::RunAggregate(const QueryNode& node, const Env& env, const Emit& emit) const {
  const bool sets = !node.grouping_sets.empty();
  std::vector<SqlType> key_types;
  for (const auto& g : node.group_by) key_types.push_back(g->type);
  if (sets) key_types.push_back(SqlType::Of(TypeId::kInt4));
  RowTable groups(key_types);
  std::vector<std::vector<Accumulator>> accumulators;
  auto group_of = [&](const Row& key) {
    bool added = false;
    const size_t group = groups.Insert(key, added);
    if (added) {
      std::vector<Accumulator> accs;
      for (const AggregateSpec& a : node.aggregates) accs.push_back(a.NewAccumulator());
      accumulators.push_back(std::move(accs));
    }
    return group;
  };
  auto feed = [&](size_t group, const EvalContext& ctx) {
    for (size_t i = 0; i < node.aggregates.size(); ++i) node.aggregates[i].Feed(accumulators[group][i], ctx);
  };
  const size_t keys = node.group_by.size();
  if (!sets && keys == 0) group_of(Row{});
  for (size_t s = 0; s < node.grouping_sets.size(); ++s)
    if (node.grouping_sets[s].empty()) {
      Row key(keys);
      key.push_back(Datum::Int(static_cast<int64_t>(s)));
      group_of(key);
    }
  EvalContext ctx = Ctx(env);
  Row values, key;
  Run(*node.children[0], env, [&](Row& row) {
    ctx.tuple = row;
    values.clear();
    for (const auto& g : node.group_by) values.push_back(Eval(*g, ctx));
    if (!sets) {
      feed(group_of(values), ctx);
      return true;
    }
    for (size_t s = 0; s < node.grouping_sets.size(); ++s) {
      key.assign(keys, Datum::Null());
      for (int k : node.grouping_sets[s]) key[static_cast<size_t>(k)] = values[static_cast<size_t>(k)];
      key.push_back(Datum::Int(static_cast<int64_t>(s)));
      feed(group_of(key), ctx);
    }
    return true;
  });
  Row out;
  for (size_t g = 0; g < groups.size(); ++g) {
    out = groups.key(g);
    if (sets) out.pop_back();  // the set's number
    for (const Accumulator& a : accumulators[g]) out.push_back(a.Result());
    if (!emit(out)) return false;
  }
  return true;
}

bool Executor::RunWindow(const QueryNode& node, const Env& env, const Emit& emit) const {
  std::vector<Row> rows = Collect(*node.children[0], env);
  const size_t base = node.children[0]->types.size();
  for (Row& r : rows) r.resize(base + node.window_calls.size());
  EvalContext ctx = Ctx(env);
  for (size_t w = 0; w < node.windows.size(); ++w) {
    const WindowSpec& spec = node.windows[w];
    // Each row's partition and order keys, then the rows sorted by them (stable).
    std::vector<Row> part(rows.size()), ord(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      ctx.tuple = std::span<const Datum>(rows[i].data(), base);
      for (const auto& e : spec.partition_by) part[i].push_back(Eval(*e, ctx));
      for (const auto& e : spec.order_by) ord[i].push_back(Eval(*e, ctx));
    }
    std::vector<size_t> order(rows.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto compare_part = [&](size_t a, size_t b) {
      for (size_t k = 0; k < spec.partition_by.size(); ++k) {
        int c = CompareForSort(part[a][k], part[b][k], SortKey{}, spec.partition_by[k]->type);
        if (c != 0) return c;
      }
      return 0;
    };
    auto compare_ord = [&](size_t a, size_t b) {
      for (size_t k = 0; k < spec.order_by.size(); ++k) {
        int c = CompareForSort(ord[a][k], ord[b][k], spec.order[k], spec.order_by[k]->type);
        if (c != 0) return c;
      }
      return 0;
    };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      int c = compare_part(a, b);
      return c != 0 ? c < 0 : compare_ord(a, b) < 0;
    });
    for (size_t start = 0; start < order.size();) {
      size_t end = start + 1;
      while (end < order.size() && compare_part(order[start], order[end]) == 0) ++end;
      const int64_t n = static_cast<int64_t>(end - start);
      // Peer groups: [peer_start[i], peer_end[i]) of the i-th row of the partition.
      std::vector<int64_t> peer_start(static_cast<size_t>(n)), peer_end(static_cast<size_t>(n));
      for (int64_t i = 0; i < n;) {
        int64_t j = i + 1;
        while (j < n && compare_ord(order[start + static_cast<size_t>(i)], order[start + static_cast<size_t>(j)]) == 0) ++j;
        for (int64_t k = i; k < j; ++k) {
          peer_start[static_cast<size_t>(k)] = i;
          peer_end[static_cast<size_t>(k)] = j;
        }
        i = j;
      }
      // The frame of the i-th row: [lo, hi).
      auto frame = [&](int64_t i) -> std::pair<int64_t, int64_t> {
        if (spec.whole_partition) return {0, n};
        if (!spec.rows_mode) {
          int64_t lo = spec.start_offset == INT64_MIN ? 0 : peer_start[static_cast<size_t>(i)];
          int64_t hi = spec.end_offset == INT64_MAX ? n : peer_end[static_cast<size_t>(i)];
          return {lo, hi};
        }
        int64_t lo = spec.start_offset == INT64_MIN ? 0 : std::max<int64_t>(0, i + spec.start_offset);
        int64_t hi = spec.end_offset == INT64_MAX ? n : std::min<int64_t>(n, i + spec.end_offset + 1);
        return {lo, std::max(lo, hi)};
      };
      auto row_at = [&](int64_t i) -> Row& { return rows[order[start + static_cast<size_t>(i)]]; };
      for (size_t c = 0; c < node.window_calls.size(); ++c) {
        const WindowCall& call = node.window_calls[c];
        if (call.window != static_cast<int>(w)) continue;
        const size_t slot = base + c;
        auto arg = [&](int64_t i, size_t a) {
          ctx.tuple = std::span<const Datum>(row_at(i).data(), base);
          return Eval(*call.args[a], ctx);
        };
        int64_t rank = 1, dense = 0;
        for (int64_t i = 0; i < n; ++i) {
          Datum& out = row_at(i)[slot];
          const bool first_of_peers = peer_start[static_cast<size_t>(i)] == i;
          if (first_of_peers) {
            rank = i + 1;
            ++dense;
          }
          switch (call.func) {
            case WindowFunc::kRowNumber: out = Datum::Int(i + 1); break;
            case WindowFunc::kRank: out = Datum::Int(rank); break;
            case WindowFunc::kDenseRank: out = Datum::Int(dense); break;
            case WindowFunc::kPercentRank: out = Datum::Float(n > 1 ? static_cast<double>(rank - 1) / static_cast<double>(n - 1) : 0.0); break;
            case WindowFunc::kCumeDist:
              out = Datum::Float(static_cast<double>(peer_end[static_cast<size_t>(i)]) / static_cast<double>(n));
              break;
            case WindowFunc::kNtile: {
              Datum buckets = arg(i, 0);
              if (buckets.is_null()) {
                out = Datum::Null();
                break;
              }
              if (buckets.i <= 0) throw SqlError(sqlstate::kInvalidParameterValue, "argument of ntile must be greater than zero");
              const int64_t b = buckets.i, per = n / b, extra = n % b;
              // The first `extra` buckets hold per + 1 rows.
              int64_t bucket = i < extra * (per + 1) ? i / (per + 1) : extra + (per == 0 ? 0 : (i - extra * (per + 1)) / per);
              out = Datum::Int(bucket + 1);
              break;
            }
            case WindowFunc::kLag:
            case WindowFunc::kLead: {
              int64_t offset = 1;
              if (call.args.size() > 1) {
                Datum o = arg(i, 1);
                if (o.is_null()) {
                  out = Datum::Null();
                  break;
                }
                offset = o.i;
              }
              const int64_t j = call.func == WindowFunc::kLag ? i - offset : i + offset;
              if (j >= 0 && j < n) out = arg(j, 0);
              else out = call.args.size() > 2 ? arg(i, 2) : Datum::Null();
              break;
            }
            case WindowFunc::kFirstValue:
            case WindowFunc::kLastValue:
            case WindowFunc::kNthValue: {
              auto [lo, hi] = frame(i);
              int64_t j = call.func == WindowFunc::kFirstValue ? lo : call.func == WindowFunc::kLastValue ? hi - 1 : -1;
              if (call.func == WindowFunc::kNthValue) {
                Datum k = arg(i, 1);
                if (k.is_null()) {
                  out = Datum::Null();
                  break;
                }
                if (k.i <= 0) throw SqlError(sqlstate::kInvalidParameterValue, "argument of nth_value must be greater than zero");
                j = lo + k.i - 1;
              }
              out = j >= lo && j < hi ? arg(j, 0) : Datum::Null();
              break;
            }
            case WindowFunc::kAgg: {
              auto [lo, hi] = frame(i);
              Accumulator acc = call.agg.NewAccumulator();
              for (int64_t j = lo; j < hi; ++j) {
                ctx.tuple = std::span<const Datum>(row_at(j).data(), base);
                call.agg.Feed(acc, ctx);
              }
              out = acc.Result();
              break;
            }
          }
        }
      }
      start = end;
    }
  }
  for (Row& r : rows)
    if (!emit(r)) return false;
  return true;
}

bool Executor::RunSetOp(const QueryNode& node, const Env& env, const Emit& emit) const {
  const QueryNode& left = *node.children[0];
  const QueryNode& right = *node.children[1];
  if (node.set_op == SetOpKind::kUnion) {
    if (node.all) return Run(left, env, emit) && Run(right, env, emit);
    RowTable seen(node.types);
    auto once = [&](Row& r) {
      bool added = false;
      seen.Insert(r, added);
      return !added || emit(r);
    };
    return Run(left, env, once) && Run(right, env, once);
  }
  RowTable right_rows(node.types);
  std::vector<int64_t> counts;
  Run(right, env, [&](Row& r) {
    bool added = false;
    size_t i = right_rows.Insert(r, added);
    if (added) counts.push_back(0);
    ++counts[i];
    return true;
  });
  RowTable emitted(node.types);
  const bool intersect = node.set_op == SetOpKind::kIntersect;
  return Run(left, env, [&](Row& r) {
    std::optional<size_t> i = right_rows.Find(r);
    const bool in_right = i && counts[*i] > 0;
    if (node.all) {
      if (in_right) --counts[*i];
      return in_right != intersect ? true : emit(r);
    }
    if (in_right != intersect) return true;
    bool added = false;
    emitted.Insert(r, added);
    return !added || emit(r);
  });
}

bool Executor::RunSort(const QueryNode& node, const Env& env, const Emit& emit, std::optional<size_t> keep) const {
  std::vector<Row> rows = Collect(*node.children[0], env);
  // Stable: equal rows keep their input order (an index breaks ties in the top-N case).
  std::vector<size_t> order(rows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto less = [&](size_t x, size_t y) {
    const Row& a = rows[x];
    const Row& b = rows[y];
    for (const SortKey& k : node.sort) {
      const size_t i = static_cast<size_t>(k.output);
      int c = CompareForSort(a[i], b[i], k, node.types[i]);
      if (c != 0) return c < 0;
    }
    return x < y;
  };
  if (keep && *keep < order.size()) {
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(*keep), order.end(), less);
    order.resize(*keep);
  } else {
    std::sort(order.begin(), order.end(), less);
  }
  for (size_t i : order)
    if (!emit(rows[i])) return false;
  return true;
}

bool Executor::RunProjectSet(const QueryNode& node, const Env& env, const Emit& emit) const {
  EvalContext ctx = Ctx(env);
  std::vector<std::vector<Datum>> values(node.set_functions.size());
  Row out;
  return Run(*node.children[0], env, [&](Row& r) {
    ctx.tuple = r;
    size_t rows = 0;
    for (size_t f = 0; f < node.set_functions.size(); ++f) {
      const SetFunctionCall& call = node.set_functions[f];
      std::vector<Datum> args;
      for (const auto& a : call.args) args.push_back(Eval(*a, ctx));
      values[f].clear();
      if (call.function == TableFunction::kUnnest) {
        if (!args[0].is_null()) values[f] = *args[0].array;
      } else {
        GenerateSeries(args, [&](Datum v) {
          values[f].push_back(std::move(v));
          return true;
        });
      }
      rows = std::max(rows, values[f].size());
    }
    for (size_t i = 0; i < rows; ++i) {
      out = r;
      for (const auto& v : values) out.push_back(i < v.size() ? v[i] : Datum::Null());
      if (!emit(out)) return false;
    }
    return true;
  });
}

bool Executor::RunRecursive(const QueryNode& node, const Env& env, const Emit& emit) const {
  RowTable seen(node.types);
  std::vector<Row> working;
  auto add = [&](Row& r) {
    if (!node.all) {
      bool added = false;
      seen.Insert(r, added);
      if (!added) return true;
    }
    working.push_back(r);
    return emit(r);
  };
  if (!Run(*node.children[0], env, add)) return false;
  while (!working.empty()) {
    work_tables_[node.cte] = std::move(working);
    working.clear();
    if (!Run(*node.children[1], env, add)) return false;
  }
  return true;
}

bool Executor::Run(const QueryNode& node, const Env& env, const Emit& emit) const {
  switch (node.kind) {
    case QueryNodeKind::kResult: {
      Row row;
      return emit(row);
    }
    case QueryNodeKind::kScan: return RunScan(node, env, emit);
    case QueryNodeKind::kValues: {
      EvalContext ctx = Ctx(env);
      Row row;
      for (const auto& exprs : node.rows) {
        row.clear();
        for (const auto& e : exprs) row.push_back(Eval(*e, ctx));
        if (!emit(row)) return false;
      }
      return true;
    }
    case QueryNodeKind::kFunctionScan: return RunFunction(node, env, emit);
    case QueryNodeKind::kSubqueryScan: {
      EvalContext ctx = Ctx(env);
      ctx.tuple = env.left;
      std::vector<Datum> params;
      for (const auto& p : node.params) params.push_back(Eval(*p, ctx));
      const size_t width = node.types.size();
      return Run(*node.children[0], Env{params, {}}, [&](Row& r) {
        r.resize(width);
        return emit(r);
      });
    }
    case QueryNodeKind::kCteScan: {
      const QueryPlan::Cte& cte = plan_.ctes[static_cast<size_t>(node.cte)];
      if (cte.recursive) return Run(*cte.plan, Env{}, emit);  // streamed: a LIMIT above ends it
      auto it = ctes_.find(node.cte);
      if (it == ctes_.end()) it = ctes_.emplace(node.cte, Collect(*cte.plan, Env{})).first;
      Row row;
      for (const Row& r : it->second) {
        row = r;
        if (!emit(row)) return false;
      }
      return true;
    }
    case QueryNodeKind::kWorkTableScan: {
      // The step reading it runs to its end before the work table is replaced.
      const std::vector<Row>& rows = work_tables_[node.cte];
      Row row;
      for (const Row& r : rows) {
        row = r;
        if (!emit(row)) return false;
      }
      return true;
    }
    case QueryNodeKind::kJoin: return RunJoin(node, env, emit);
    case QueryNodeKind::kFilter: {
      EvalContext ctx = Ctx(env);
      return Run(*node.children[0], env, [&](Row& r) {
        ctx.tuple = r;
        return !EvalCondition(*node.condition, ctx) || emit(r);
      });
    }
    case QueryNodeKind::kAggregate: return RunAggregate(node, env, emit);
    case QueryNodeKind::kWindow: return RunWindow(node, env, emit);
    case QueryNodeKind::kProject: {
      EvalContext ctx = Ctx(env);
      Row out;
      return Run(*node.children[0], env, [&](Row& r) {
        ctx.tuple = r;
        out.clear();
        for (const auto& e : node.exprs) out.push_back(Eval(*e, ctx));
        return emit(out);
      });
    }
    case QueryNodeKind::kDistinct: {
      std::vector<SqlType> types;
      for (const auto& k : node.distinct_keys) types.push_back(k->type);
      RowTable seen(types);
      EvalContext ctx = Ctx(env);
      Row key;
      return Run(*node.children[0], env, [&](Row& r) {
        ctx.tuple = r;
        key.clear();
        for (const auto& k : node.distinct_keys) key.push_back(Eval(*k, ctx));
        bool added = false;
        seen.Insert(key, added);
        return !added || emit(r);
      });
    }
    case QueryNodeKind::kSort: return RunSort(node, env, emit, std::nullopt);
    case QueryNodeKind::kLimit: {
      EvalContext ctx = Ctx(env);
      std::optional<int64_t> limit;
      int64_t offset = 0;
      if (node.limit) {
        Datum v = Eval(*node.limit, ctx);
        if (!v.is_null()) {
          if (v.i < 0) throw SqlError(sqlstate::kInvalidRowCountInLimit, "LIMIT must not be negative");
          limit = v.i;
        }
      }
      if (node.offset) {
        Datum v = Eval(*node.offset, ctx);
        if (!v.is_null()) {
          if (v.i < 0) throw SqlError(sqlstate::kInvalidRowCountInOffset, "OFFSET must not be negative");
          offset = v.i;
        }
      }
      if (limit && *limit == 0) return true;
      int64_t skipped = 0, emitted = 0;
      bool stopped = false;
      auto take = [&](Row& r) {
        if (skipped < offset) {
          ++skipped;
          return true;
        }
        if (!emit(r)) {
          stopped = true;
          return false;
        }
        ++emitted;
        return !limit || emitted < *limit;
      };
      // ORDER BY ... LIMIT n: a top-N sort keeps only the first offset + n rows in order.
      if (limit && node.children[0]->kind == QueryNodeKind::kSort)
        RunSort(*node.children[0], env, take, static_cast<size_t>(offset + *limit));
      else
        Run(*node.children[0], env, take);
      return !stopped;
    }
    case QueryNodeKind::kSetOp: return RunSetOp(node, env, emit);
    case QueryNodeKind::kRecursiveUnion: return RunRecursive(node, env, emit);
    case QueryNodeKind::kProjectSet: return RunProjectSet(node, env, emit);
  }
  return true;
}

}  // namespace

void RunQuery(const QueryPlan& plan, RowSource& source, std::span<const Datum> variables,
              const std::function<bool(std::span<const Datum>)>& row) {
  Executor executor(plan, source, variables);
  const size_t width = plan.columns.size();
  executor.Run(*plan.root, Env{}, [&](Row& r) { return row(std::span<const Datum>(r.data(), width)); });
}

ResultSet ExecuteQuery(const QueryPlan& plan, engine::Database& db) {
  SnapshotSource source(db);
  return ExecuteQuery(plan, source);
}

ResultSet ExecuteQuery(const QueryPlan& plan, RowSource& source) {
  ResultSet result;
  for (const OutputColumn& c : plan.columns) result.columns.push_back(ResultColumn{c.name, c.type});
  RunQuery(plan, source, {}, [&](std::span<const Datum> row) {
    std::vector<std::optional<std::string>> text;
    for (size_t c = 0; c < plan.columns.size(); ++c)
      text.push_back(row[c].is_null() ? std::nullopt : std::optional<std::string>(DatumToText(row[c], plan.columns[c].type)));
    result.rows.push_back(std::move(text));
    return true;
  });
  return result;
}

}  // namespace caracal::planner
