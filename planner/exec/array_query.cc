#include "planner/exec/array_query.h"

#include <algorithm>
#include <numeric>

#include "planner/exec/datum_order.h"

namespace caracal::planner {

namespace {

// Above this many rows, DISTINCT's pairwise check would cost more than the executor's hash.
constexpr size_t kMaxDistinctRows = 64;

// A node's tuples: column c of row r is arrays[c] element rows[r] (NULL past its end, as
// unnest pads a shorter array).
struct ArrayRows {
  std::vector<const Datum*> arrays;
  std::vector<Datum> owned;  // arrays made here (WITH ORDINALITY's numbers)
  std::vector<uint32_t> rows;
  bool identity = true;  // rows is 0 .. n-1

  const Datum& at(size_t column, uint32_t row) const {
    static const Datum null;
    const Datum& a = *arrays[column];
    return a.is_null() || row >= a.array->size() ? null : (*a.array)[row];
  }
};

bool IsColumn(const Expr& e) { return e.kind == ExprKind::kSlot && e.slot.space == SlotSpace::kTuple; }

std::optional<ArrayRows> Run(const QueryNode& node, std::span<const Datum> variables) {
  switch (node.kind) {
    case QueryNodeKind::kFunctionScan: {
      if (node.function != TableFunction::kUnnest || node.parameterized || !node.params.empty()) return std::nullopt;
      ArrayRows out;
      size_t rows = 0;
      for (const ExprPtr& a : node.args) {
        if (a->kind != ExprKind::kSlot || a->slot.space != SlotSpace::kVariable) return std::nullopt;
        const Datum& array = variables[static_cast<size_t>(a->slot.index)];
        if (!array.is_null() && array.kind != Datum::Kind::kArray) return std::nullopt;
        out.arrays.push_back(&array);
        rows = std::max(rows, array.is_null() ? size_t{0} : array.array->size());
      }
      if (node.ordinality) {
        std::vector<Datum> n(rows);
        for (size_t i = 0; i < rows; ++i) n[i] = Datum::Int(static_cast<int64_t>(i + 1));
        // Moving an ArrayRows moves this vector's buffer: the pointer stays valid.
        out.owned.push_back(Datum::Array(std::move(n)));
        out.arrays.push_back(&out.owned.back());
      }
      out.rows.resize(rows);
      std::iota(out.rows.begin(), out.rows.end(), 0);
      return out;
    }
    case QueryNodeKind::kProject: {
      std::optional<ArrayRows> in = Run(*node.children[0], variables);
      if (!in) return std::nullopt;
      ArrayRows out;
      out.owned = std::move(in->owned);
      for (const ExprPtr& e : node.exprs) {
        if (!IsColumn(*e)) return std::nullopt;
        out.arrays.push_back(in->arrays[static_cast<size_t>(e->slot.index)]);
      }
      out.rows = std::move(in->rows);
      out.identity = in->identity;
      return out;
    }
    case QueryNodeKind::kSort: {
      std::optional<ArrayRows> in = Run(*node.children[0], variables);
      if (!in) return std::nullopt;
      std::stable_sort(in->rows.begin(), in->rows.end(), [&](uint32_t x, uint32_t y) {
        for (const SortKey& k : node.sort) {
          const size_t c = static_cast<size_t>(k.output);
          const int order = CompareForSort(in->at(c, x), in->at(c, y), k, node.types[c]);
          if (order != 0) return order < 0;
        }
        return false;
      });
      in->identity = false;
      return in;
    }
    case QueryNodeKind::kDistinct: {
      std::optional<ArrayRows> in = Run(*node.children[0], variables);
      if (!in || in->rows.size() > kMaxDistinctRows) return std::nullopt;
      std::vector<size_t> keys;
      std::vector<SqlType> types;
      for (const ExprPtr& k : node.distinct_keys) {
        if (!IsColumn(*k)) return std::nullopt;
        keys.push_back(static_cast<size_t>(k->slot.index));
        types.push_back(k->type);
      }
      if (node.distinct_keys.empty())
        for (size_t c = 0; c < node.types.size(); ++c) {
          keys.push_back(c);
          types.push_back(node.types[c]);
        }
      std::vector<uint32_t> kept;
      for (uint32_t r : in->rows) {
        const bool seen = std::ranges::any_of(kept, [&](uint32_t k) {
          for (size_t i = 0; i < keys.size(); ++i)
            if (!NotDistinct(in->at(keys[i], r), in->at(keys[i], k), types[i])) return false;
          return true;
        });
        if (!seen) kept.push_back(r);
      }
      in->identity = in->identity && kept.size() == in->rows.size();
      in->rows = std::move(kept);
      return in;
    }
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<std::vector<Datum>> RunOverArrays(const QueryPlan& plan, std::span<const Datum> variables) {
  if (!plan.root || !plan.subplans.empty() || !plan.ctes.empty()) return std::nullopt;
  std::optional<ArrayRows> rows = Run(*plan.root, variables);
  if (!rows) return std::nullopt;
  if (rows->arrays.size() < plan.columns.size()) return std::nullopt;
  std::vector<Datum> out;
  for (size_t c = 0; c < plan.columns.size(); ++c) {
    const Datum& a = *rows->arrays[c];
    if (rows->identity && !a.is_null() && a.array->size() == rows->rows.size()) {
      out.push_back(a);  // the array itself, shared
      continue;
    }
    std::vector<Datum> column;
    column.reserve(rows->rows.size());
    for (uint32_t r : rows->rows) column.push_back(rows->at(c, r));
    out.push_back(Datum::Array(std::move(column)));
  }
  return out;
}

}  // namespace caracal::planner
