// The FROM clause's physical plan. Rules (no cost model; see README.md):
// - Inner joins and comma lists are flattened into items joined in a greedy order; outer
//   joins are planned as written (their right side stays on the right) and join the rest
//   as one item.
// - WHERE conjuncts go to the lowest point where every table they read has been joined: a
//   conjunct over one table becomes that scan's filter (and may pick its access path).
// - Row estimates: a table gives its engine row count (at least 1000), each key column its
//   filters fix by `=` a tenth of that, a bound or another filter a third, a point read one;
//   a function or VALUES 10, a subquery 1000.
// - The first item is the one giving the fewest rows through its own filters; each next one
//   is the cheapest to join (rows touched: a nested loop left x right, a hash join left +
//   right, an index nested loop left x (1 + rows per probe)); ties go to FROM order.
// - Joining a table whose primary key (or an index) prefix the left side binds is an index
//   nested loop when that is the cheapest; an equality between the two sides is a hash join
//   (an inner join hashes its smaller side); anything else is a nested loop over the right side materialized once (or run per left tuple when
//   it reads the left side: LATERAL).
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "planner/binder/query_binder.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

void MarkUsed(const Expr& e, std::vector<bool>& used) {
  if (e.kind == ExprKind::kSlot && e.slot.space == SlotSpace::kTuple && static_cast<size_t>(e.slot.index) < used.size())
    used[static_cast<size_t>(e.slot.index)] = true;
  for (const auto& a : e.args) MarkUsed(*a, used);
}

ExprPtr RemapToLayout(ExprPtr e, const std::vector<int>& layout) {
  std::unordered_map<int, int> position;
  for (size_t i = 0; i < layout.size(); ++i) position.emplace(layout[i], static_cast<int>(i));
  ForEachSlot(*e, [&](Slot& s) {
    if (s.space != SlotSpace::kTuple) return;
    auto it = position.find(s.index);
    if (it == position.end()) throw SqlError(sqlstate::kInternalError, "query planner: a column is not available where it is read");
    s.index = it->second;
  });
  return e;
}

namespace {

using LeafSet = std::set<int>;

ExprPtr AndOf(std::vector<ExprPtr> parts) {
  if (parts.empty()) return nullptr;
  if (parts.size() == 1) return std::move(parts[0]);
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kAnd;
  e->type = SqlType::Of(TypeId::kBool);
  e->args = std::move(parts);
  return e;
}

struct Conjunct {
  ExprPtr expr;
  LeafSet leaves;
  bool placed = false;
};

// A planned piece of the FROM clause.
struct Planned {
  QueryNodePtr node;
  std::vector<int> layout;
  LeafSet leaves;
  double rows = 1;  // estimated
};

// How an item would join the items joined so far, and what that costs (in rows touched).
struct JoinChoice {
  JoinMethod method = JoinMethod::kNestedLoop;
  double cost = 0;
  double rows = 1;        // estimated output
  double right_rows = 1;  // the right side through its own filters
};

class FromPlanner {
 public:
  FromPlanner(QueryBlock& block, const std::vector<bool>& used, const TableRowEstimator& estimate)
      : block_(block), used_(used), estimate_(estimate) {}

  QueryNodePtr Plan(std::vector<std::unique_ptr<FromTree>> items, std::vector<ExprPtr> conjuncts, std::vector<int>& layout);

 private:
  LeafSet LeavesOf(const Expr& e) const {
    LeafSet out;
    std::function<void(const Expr&)> walk = [&](const Expr& x) {
      if (x.kind == ExprKind::kSlot && x.slot.space == SlotSpace::kTuple) {
        auto it = owner_.find(x.slot.index);
        if (it != owner_.end()) out.insert(it->second.begin(), it->second.end());
      }
      for (const auto& a : x.args) walk(*a);
    };
    walk(e);
    return out;
  }
  void RecordOwners(const FromTree& tree) {
    if (tree.quals) MarkUsed(*tree.quals, used_);
    for (const auto& [id, e] : tree.computed) MarkUsed(*e, used_);
    if (tree.leaf >= 0) {
      const FromLeaf& leaf = block_.leaves[static_cast<size_t>(tree.leaf)];
      if (leaf.node)
        for (const auto& e : leaf.node->params) MarkUsed(*e, used_);
      if (leaf.node)
        for (const auto& e : leaf.node->args) MarkUsed(*e, used_);
      for (int id : block_.leaves[static_cast<size_t>(tree.leaf)].ids) owner_[id] = {tree.leaf};
      return;
    }
    RecordOwners(*tree.left);
    RecordOwners(*tree.right);
    for (const auto& [id, e] : tree.computed) owner_[id] = LeafSet(tree.leaves.begin(), tree.leaves.end());
  }
  // Rows an item gives: a table's count (at least 1000, as for a table never analysed:
  // small tables change, and an empty one should not lead a join), a function's or VALUES'
  // 10, a subquery's 1000; a join's the product over 10.
  size_t EstimateRows(const FromTree& tree) const {
    if (tree.leaf < 0) return EstimateRows(*tree.left) * std::max<size_t>(1, EstimateRows(*tree.right) / 10);
    const FromLeaf& leaf = block_.leaves[static_cast<size_t>(tree.leaf)];
    if (leaf.table) return std::max<size_t>(estimate_ ? estimate_(*leaf.table) : 0, 1000);
    return leaf.node->kind == QueryNodeKind::kFunctionScan || leaf.node->kind == QueryNodeKind::kValues ? 10 : 1000;
  }
  bool IsLateral(const FromTree& tree) const {
    if (tree.leaf >= 0) return block_.leaves[static_cast<size_t>(tree.leaf)].lateral;
    return IsLateral(*tree.left) || IsLateral(*tree.right);
  }
  // The leaves a lateral item reads (must be joined before it).
  LeafSet LateralNeeds(const FromTree& tree) const {
    LeafSet out;
    if (tree.leaf >= 0) {
      const FromLeaf& leaf = block_.leaves[static_cast<size_t>(tree.leaf)];
      if (!leaf.lateral) return out;
      for (const auto& p : leaf.node->params) {
        LeafSet s = LeavesOf(*p);
        out.insert(s.begin(), s.end());
      }
      for (const auto& a : leaf.node->args) {
        LeafSet s = LeavesOf(*a);
        out.insert(s.begin(), s.end());
      }
      return out;
    }
    out = LateralNeeds(*tree.left);
    LeafSet r = LateralNeeds(*tree.right);
    out.insert(r.begin(), r.end());
    for (int l : tree.leaves) out.erase(l);
    return out;
  }

  double TableRows(const FromLeaf& leaf) const {
    return static_cast<double>(std::max<size_t>(estimate_ ? estimate_(*leaf.table) : 0, 1000));
  }
  // Rows a scan of `leaf` gives along `path` (each key column fixed by `=` keeps a tenth,
  // a bound a third, other filters a third; a point read one).
  double PathRows(const FromLeaf& leaf, const QueryNode& scan) const {
    if (scan.access.kind == AccessPath::Kind::kPointRead) return 1;
    double rows = TableRows(leaf);
    for (size_t k = 0; k < scan.access.prefix.size(); ++k) rows /= 10;
    if (scan.access.lower || scan.access.upper) rows /= 3;
    if (scan.has_residual ? scan.residual != nullptr : scan.filter != nullptr) rows /= 3;
    return std::max(rows, 1.0);
  }
  // Rows `item` gives through `own` filters (conjuncts over it alone).
  double ItemRows(const FromTree& item, const std::vector<ExprPtr>& own) {
    if (item.leaf >= 0 && block_.leaves[static_cast<size_t>(item.leaf)].table) {
      std::vector<ExprPtr> filters;
      for (const auto& c : own) filters.push_back(c->Clone());
      std::vector<int> scratch;
      QueryNodePtr probe = Scan(item.leaf, std::move(filters), {}, scratch);
      return PathRows(block_.leaves[static_cast<size_t>(item.leaf)], *probe);
    }
    double rows = static_cast<double>(EstimateRows(item));
    return own.empty() ? rows : std::max(rows / 3, 1.0);
  }
  JoinChoice Choose(const Planned& left, const FromTree& right, JoinKind kind, const std::vector<ExprPtr>& conds,
                    const std::vector<ExprPtr>& right_only);
  // A scan of table leaf `leaf` with `filters` (over ids; those of other leaves come from
  // `left_layout`'s tuple).
  QueryNodePtr Scan(int leaf, std::vector<ExprPtr> filters, const std::vector<int>& left_layout, std::vector<int>& layout);
  // Plans `tree` by itself: a leaf, or a join as written.
  Planned PlanTree(const FromTree& tree, std::vector<ExprPtr> pushed, const std::vector<int>& left_layout);
  // Joins `left` with item `right` under `conds` (over ids).
  Planned Join(Planned left, const FromTree& right, JoinKind kind, std::vector<ExprPtr> conds, std::vector<ExprPtr> right_only,
               const std::vector<std::pair<int, ExprPtr>>* computed);
  // A leaf that is not a table, its params and args remapped to `left_layout`.
  Planned PrepareNode(int leaf, const std::vector<int>& left_layout);

  QueryBlock& block_;
  std::vector<bool> used_;  // ids any expression reads: those scans output
  const TableRowEstimator& estimate_;
  std::unordered_map<int, LeafSet> owner_;
};

QueryNodePtr FromPlanner::Scan(int leaf_index, std::vector<ExprPtr> filters, const std::vector<int>& left_layout,
                               std::vector<int>& layout) {
  FromLeaf& leaf = block_.leaves[static_cast<size_t>(leaf_index)];
  auto node = std::make_unique<QueryNode>();
  node->kind = QueryNodeKind::kScan;
  node->table = leaf.table;
  node->alias = leaf.alias;
  for (const CatalogColumn& c : leaf.table->columns) node->names.push_back(c.name);
  std::unordered_map<int, int> column_of;
  for (size_t c = 0; c < leaf.ids.size(); ++c) {
    column_of.emplace(leaf.ids[c], static_cast<int>(c));
    if (static_cast<size_t>(leaf.ids[c]) < used_.size() && used_[static_cast<size_t>(leaf.ids[c])]) {
      node->columns.push_back(static_cast<int>(c));
      node->types.push_back(leaf.table->columns[c].type);
      layout.push_back(leaf.ids[c]);
    }
  }
  std::unordered_map<int, int> left_position;
  for (size_t i = 0; i < left_layout.size(); ++i) left_position.emplace(left_layout[i], static_cast<int>(i));
  for (auto& f : filters) {
    ForEachSlot(*f, [&](Slot& s) {
      if (s.space != SlotSpace::kTuple) return;
      if (auto it = column_of.find(s.index); it != column_of.end()) {
        s.space = SlotSpace::kColumn;
        s.index = it->second;
        return;
      }
      auto it = left_position.find(s.index);
      if (it == left_position.end()) throw SqlError(sqlstate::kInternalError, "query planner: a join column is not available");
      s.index = it->second;
      node->parameterized = true;
    });
  }
  node->filter = AndOf(std::move(filters));
  node->access = ChooseAccessPath(node->filter.get(), *leaf.table, &block_.builder.catalog);
  if (node->filter && !node->access.decided.empty()) {
    node->residual = ResidualWhere(*node->filter, node->access);
    node->has_residual = true;
  }
  return node;
}

Planned FromPlanner::PrepareNode(int leaf_index, const std::vector<int>& left_layout) {
  FromLeaf& leaf = block_.leaves[static_cast<size_t>(leaf_index)];
  Planned out;
  out.node = std::move(leaf.node);
  out.layout = leaf.ids;
  out.leaves = {leaf_index};
  if (leaf.lateral) {
    out.node->parameterized = true;
    for (auto& p : out.node->params) p = RemapToLayout(std::move(p), left_layout);
    for (auto& a : out.node->args) a = RemapToLayout(std::move(a), left_layout);
  }
  return out;
}

Planned FromPlanner::PlanTree(const FromTree& tree, std::vector<ExprPtr> pushed, const std::vector<int>& left_layout) {
  if (tree.leaf >= 0) {
    const FromLeaf& leaf = block_.leaves[static_cast<size_t>(tree.leaf)];
    if (leaf.table) {
      Planned out;
      out.leaves = {tree.leaf};
      out.node = Scan(tree.leaf, std::move(pushed), left_layout, out.layout);
      return out;
    }
    Planned out = PrepareNode(tree.leaf, left_layout);
    if (!pushed.empty()) {
      auto filter = std::make_unique<QueryNode>();
      filter->kind = QueryNodeKind::kFilter;
      // A filter over a lateral item runs per left tuple too (the join asks the top node).
      filter->parameterized = out.node->parameterized;
      filter->types = out.node->types;
      filter->condition = RemapToLayout(AndOf(std::move(pushed)), out.layout);
      filter->children.push_back(std::move(out.node));
      out.node = std::move(filter);
    }
    return out;
  }
  // A join as written: ON conjuncts over the right side alone filter it (LEFT JOIN);
  // the rest decide which pairs match.
  std::vector<const Expr*> parts;
  Conjuncts(tree.quals.get(), parts);
  const LeafSet right_leaves(tree.right->leaves.begin(), tree.right->leaves.end());
  std::vector<ExprPtr> conds, right_only;
  for (const Expr* p : parts) {
    LeafSet refs = LeavesOf(*p);
    const bool only_right = !refs.empty() && std::includes(right_leaves.begin(), right_leaves.end(), refs.begin(), refs.end());
    if (only_right && tree.kind != JoinKind::kFull) right_only.push_back(p->Clone());
    else conds.push_back(p->Clone());
  }
  Planned left = PlanTree(*tree.left, {}, left_layout);
  Planned joined = Join(std::move(left), *tree.right, tree.kind, std::move(conds), std::move(right_only), &tree.computed);
  if (!pushed.empty()) {
    auto filter = std::make_unique<QueryNode>();
    filter->kind = QueryNodeKind::kFilter;
    filter->types = joined.node->types;
    filter->condition = RemapToLayout(AndOf(std::move(pushed)), joined.layout);
    filter->children.push_back(std::move(joined.node));
    joined.node = std::move(filter);
  }
  return joined;
}

// Whether `e` is `a = b` with one side over `left` leaves only and the other over `right`
// only; `swap`: args[0] is the right side.
bool IsEquiJoin(const Expr& e, const LeafSet& left, const LeafSet& right, const std::function<LeafSet(const Expr&)>& leaves_of,
                bool& swap) {
  if (e.kind != ExprKind::kCompare || e.op != Op::kEq) return false;
  if (e.Contains(ExprKind::kSubquery) || e.DrawsRandom()) return false;
  LeafSet a = leaves_of(*e.args[0]), b = leaves_of(*e.args[1]);
  auto within = [](const LeafSet& s, const LeafSet& set) {
    return !s.empty() && std::includes(set.begin(), set.end(), s.begin(), s.end());
  };
  if (within(a, left) && within(b, right)) {
    swap = false;
    return true;
  }
  if (within(a, right) && within(b, left)) {
    swap = true;
    return true;
  }
  return false;
}

JoinChoice FromPlanner::Choose(const Planned& left, const FromTree& right, JoinKind kind, const std::vector<ExprPtr>& conds,
                               const std::vector<ExprPtr>& right_only) {
  JoinChoice choice;
  choice.right_rows = ItemRows(right, right_only);
  const LeafSet right_leaves(right.leaves.begin(), right.leaves.end());
  bool equi = false;
  auto leaves_of = [&](const Expr& e) { return LeavesOf(e); };
  for (const auto& c : conds) {
    bool swap = false;
    equi = equi || IsEquiJoin(*c, left.leaves, right_leaves, leaves_of, swap);
  }
  // Nested loop: every pair.
  choice.method = JoinMethod::kNestedLoop;
  choice.cost = left.rows * choice.right_rows;
  choice.rows = std::max(conds.empty() ? choice.cost : choice.cost / 3, 1.0);
  if (IsLateral(right)) return choice;
  if (equi) {  // hash join: build one side, probe with the other
    const double cost = left.rows + choice.right_rows;
    if (cost < choice.cost) {
      choice.method = JoinMethod::kHash;
      choice.cost = cost;
      choice.rows = std::max(left.rows, choice.right_rows);
    }
  }
  // Index nested loop: one keyed read per left row.
  if (right.leaf >= 0 && block_.leaves[static_cast<size_t>(right.leaf)].table && kind != JoinKind::kFull && !conds.empty()) {
    std::vector<ExprPtr> filters;
    for (const auto& c : right_only) filters.push_back(c->Clone());
    for (const auto& c : conds) filters.push_back(c->Clone());
    std::vector<int> scratch;
    QueryNodePtr scan = Scan(right.leaf, std::move(filters), left.layout, scratch);
    bool binds = false;
    for (const Expr* v : scan->access.prefix) binds = binds || v->References(SlotSpace::kTuple);
    if (binds) {
      const double per_probe = PathRows(block_.leaves[static_cast<size_t>(right.leaf)], *scan);
      const double cost = left.rows * (1 + per_probe);
      if (cost <= choice.cost) {
        choice.method = JoinMethod::kIndexNestedLoop;
        choice.cost = cost;
        choice.rows = std::max(left.rows * per_probe, 1.0);
      }
    }
  }
  return choice;
}

Planned FromPlanner::Join(Planned left, const FromTree& right, JoinKind kind, std::vector<ExprPtr> conds,
                          std::vector<ExprPtr> right_only, const std::vector<std::pair<int, ExprPtr>>* computed) {
  auto join = std::make_unique<QueryNode>();
  join->kind = QueryNodeKind::kJoin;
  join->join = kind;
  Planned r;
  const LeafSet right_leaves(right.leaves.begin(), right.leaves.end());
  const JoinChoice choice = Choose(left, right, kind, conds, right_only);
  bool done = false;
  if (choice.method == JoinMethod::kIndexNestedLoop) {
    // The join conditions go into the scan: its key comes from them, its filter checks them.
    std::vector<ExprPtr> filters = std::move(right_only);
    for (auto& c : conds) filters.push_back(std::move(c));
    conds.clear();
    std::vector<int> layout;
    r.node = Scan(right.leaf, std::move(filters), left.layout, layout);
    r.layout = std::move(layout);
    r.leaves = {right.leaf};
    join->method = JoinMethod::kIndexNestedLoop;
    done = true;
  }
  if (!done) {
    r = PlanTree(right, std::move(right_only), left.layout);
    if (r.node->parameterized) {
      join->method = JoinMethod::kNestedLoop;
    } else {
      auto leaves_of = [&](const Expr& e) { return LeavesOf(e); };
      std::vector<ExprPtr> rest;
      for (auto& c : conds) {
        bool swap = false;
        if (IsEquiJoin(*c, left.leaves, right_leaves, leaves_of, swap)) {
          join->left_keys.push_back(RemapToLayout(std::move(c->args[swap ? 1 : 0]), left.layout));
          join->right_keys.push_back(RemapToLayout(std::move(c->args[swap ? 0 : 1]), r.layout));
        } else {
          rest.push_back(std::move(c));
        }
      }
      conds = std::move(rest);
      join->method = join->left_keys.empty() ? JoinMethod::kNestedLoop : JoinMethod::kHash;
      // An inner join hashes its smaller side.
      join->build_left = join->method == JoinMethod::kHash && kind == JoinKind::kInner && left.rows < choice.right_rows;
    }
  }
  Planned out;
  out.rows = choice.rows;
  out.layout = left.layout;
  out.layout.insert(out.layout.end(), r.layout.begin(), r.layout.end());
  out.leaves = left.leaves;
  out.leaves.insert(r.leaves.begin(), r.leaves.end());
  join->types = left.node->types;
  join->types.insert(join->types.end(), r.node->types.begin(), r.node->types.end());
  if (!conds.empty()) join->condition = RemapToLayout(AndOf(std::move(conds)), out.layout);
  if (computed) {
    const std::vector<int> joined_layout = out.layout;
    for (const auto& [id, e] : *computed) {
      join->computed.push_back(RemapToLayout(e->Clone(), joined_layout));
      join->types.push_back(block_.IdType(id));
      out.layout.push_back(id);
    }
  }
  join->children.push_back(std::move(left.node));
  join->children.push_back(std::move(r.node));
  out.node = std::move(join);
  return out;
}

// Inner joins without merged columns become separate items; their ON goes to the WHERE pool.
void Flatten(std::unique_ptr<FromTree> tree, std::vector<std::unique_ptr<FromTree>>& items, std::vector<ExprPtr>& pool) {
  if (tree->leaf < 0 && tree->kind == JoinKind::kInner && tree->computed.empty()) {
    if (tree->quals) {
      std::vector<const Expr*> parts;
      Conjuncts(tree->quals.get(), parts);
      for (const Expr* p : parts) pool.push_back(p->Clone());
    }
    Flatten(std::move(tree->left), items, pool);
    Flatten(std::move(tree->right), items, pool);
    return;
  }
  items.push_back(std::move(tree));
}

QueryNodePtr FromPlanner::Plan(std::vector<std::unique_ptr<FromTree>> from, std::vector<ExprPtr> where, std::vector<int>& layout) {
  for (const auto& t : from) RecordOwners(*t);
  std::vector<std::unique_ptr<FromTree>> items;
  for (auto& t : from) Flatten(std::move(t), items, where);
  std::vector<Conjunct> pool;
  std::vector<ExprPtr> constant;  // read no table: checked once, above everything
  for (auto& c : where) {
    LeafSet refs = LeavesOf(*c);
    if (refs.empty()) constant.push_back(std::move(c));
    else pool.push_back(Conjunct{std::move(c), std::move(refs), false});
  }
  auto item_leaves = [&](size_t i) { return LeafSet(items[i]->leaves.begin(), items[i]->leaves.end()); };
  auto within = [](const LeafSet& s, const LeafSet& set) { return std::includes(set.begin(), set.end(), s.begin(), s.end()); };
  // The conjuncts over `leaves` only, not yet placed (marked placed).
  auto take = [&](const LeafSet& leaves) {
    std::vector<ExprPtr> out;
    for (Conjunct& c : pool)
      if (!c.placed && within(c.leaves, leaves)) {
        c.placed = true;
        out.push_back(c.expr->Clone());
      }
    return out;
  };

  std::vector<bool> joined(items.size(), false);
  // The first item: the one giving the fewest rows through its own filters (FROM order on ties).
  int first = -1;
  double best = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!LateralNeeds(*items[i]).empty()) continue;
    std::vector<ExprPtr> own;
    const LeafSet mine = item_leaves(i);
    if (items[i]->leaf >= 0)
      for (const Conjunct& c : pool)
        if (within(c.leaves, mine)) own.push_back(c.expr->Clone());
    const double rows = ItemRows(*items[i], own);
    if (first < 0 || rows < best) {
      best = rows;
      first = static_cast<int>(i);
    }
  }
  if (first < 0) throw SqlError(sqlstate::kInvalidColumnReference, "LATERAL references form a cycle");
  joined[static_cast<size_t>(first)] = true;
  Planned current = PlanTree(*items[static_cast<size_t>(first)], take(item_leaves(static_cast<size_t>(first))), {});
  current.rows = best;
  for (size_t step = 1; step < items.size(); ++step) {
    int next = -1;
    double next_cost = 0;
    for (size_t i = 0; i < items.size(); ++i) {
      if (joined[i] || !within(LateralNeeds(*items[i]), current.leaves)) continue;
      LeafSet all = current.leaves;
      LeafSet mine = item_leaves(i);
      all.insert(mine.begin(), mine.end());
      // The conjuncts joining it would place: its own, and those it completes.
      std::vector<ExprPtr> own, conds;
      for (const Conjunct& c : pool) {
        if (c.placed || !within(c.leaves, all)) continue;
        if (within(c.leaves, mine)) own.push_back(c.expr->Clone());
        else if (std::any_of(c.leaves.begin(), c.leaves.end(), [&](int l) { return mine.count(l) > 0; }))
          conds.push_back(c.expr->Clone());
      }
      if (items[i]->leaf < 0) {  // an outer join's own conjuncts apply above it
        for (auto& c : own) conds.push_back(std::move(c));
        own.clear();
      }
      const double cost = Choose(current, *items[i], JoinKind::kInner, conds, own).cost;
      if (next < 0 || cost < next_cost) {
        next_cost = cost;
        next = static_cast<int>(i);
      }
    }
    if (next < 0) throw SqlError(sqlstate::kInvalidColumnReference, "LATERAL references form a cycle");
    joined[static_cast<size_t>(next)] = true;
    LeafSet mine = item_leaves(static_cast<size_t>(next));
    LeafSet all = current.leaves;
    all.insert(mine.begin(), mine.end());
    // The item's own conjuncts, then those it completes with the items joined so far.
    std::vector<ExprPtr> right_only = take(mine);
    std::vector<ExprPtr> conds = take(all);
    // An outer-join item keeps its own conjuncts above it (they may read NULL-extended rows).
    if (items[static_cast<size_t>(next)]->leaf < 0) {
      for (auto& c : right_only) conds.push_back(std::move(c));
      right_only.clear();
    }
    current = Join(std::move(current), *items[static_cast<size_t>(next)], JoinKind::kInner, std::move(conds),
                   std::move(right_only), nullptr);
  }
  std::vector<ExprPtr> rest;
  for (Conjunct& c : pool)
    if (!c.placed) rest.push_back(std::move(c.expr));
  for (auto& c : constant) rest.push_back(std::move(c));
  if (!rest.empty()) {
    auto filter = std::make_unique<QueryNode>();
    filter->kind = QueryNodeKind::kFilter;
    filter->types = current.node->types;
    filter->condition = RemapToLayout(AndOf(std::move(rest)), current.layout);
    filter->children.push_back(std::move(current.node));
    current.node = std::move(filter);
  }
  layout = std::move(current.layout);
  return std::move(current.node);
}

}  // namespace

QueryNodePtr PlanFrom(QueryBlock& block, std::vector<std::unique_ptr<FromTree>> items, std::vector<ExprPtr> conjuncts,
                      const std::vector<bool>& used, const TableRowEstimator& estimate, std::vector<int>& layout) {
  return FromPlanner(block, used, estimate).Plan(std::move(items), std::move(conjuncts), layout);
}

}  // namespace caracal::planner
