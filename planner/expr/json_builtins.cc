#include "planner/expr/json_builtins.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <string>

#include "planner/types/json.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

bool IsJsonb(const SqlType& t) { return t.id == TypeId::kJsonb; }

// The JSON text of `d`, a value of type `id` (element type `element` for an array), as
// PostgreSQL's to_json writes it: numbers and booleans bare, json as it is, dates and
// timestamps in ISO 8601 with a T, everything else as a string of its text output.
std::string ToJsonText(const Datum& d, TypeId id, TypeId element) {
  if (d.is_null()) return "null";
  const SqlType type = id == TypeId::kArray ? SqlType::ArrayOf(SqlType::Of(element)) : SqlType::Of(id);
  switch (id) {
    case TypeId::kBool: return d.as_bool() ? "true" : "false";
    case TypeId::kInt2:
    case TypeId::kInt4:
    case TypeId::kInt8:
    case TypeId::kNumeric: return DatumToText(d, type);
    case TypeId::kFloat4:
    case TypeId::kFloat8:
      // NaN and the infinities are not JSON numbers: PostgreSQL writes them as strings.
      if (!std::isfinite(d.f)) return JsonQuote(DatumToText(d, type));
      return DatumToText(d, type);
    case TypeId::kJson:
    case TypeId::kJsonb: return d.s;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kDate: {
      std::string text = DatumToText(d, type);
      if (text == "infinity" || text == "-infinity") return JsonQuote(text);
      if (const size_t space = text.find(' '); space != std::string::npos && id != TypeId::kDate) text[space] = 'T';
      // The zone as XML Schema writes it: +00:00 (the session zone is UTC).
      if (id == TypeId::kTimestampTz && text.size() > 3 && (text[text.size() - 3] == '+' || text[text.size() - 3] == '-'))
        text += ":00";
      return JsonQuote(text);
    }
    case TypeId::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < d.array->size(); ++i) {
        if (i) out.push_back(',');
        out += ToJsonText((*d.array)[i], element, TypeId::kUnknown);
      }
      return out + "]";
    }
    default: return JsonQuote(DatumToText(d, type));
  }
}

Datum JsonResult(std::string json_text, const SqlType& result) {
  if (IsJsonb(result)) return Datum::String(JsonbText(ToJsonb(ParseJson(json_text))));
  return Datum::String(std::move(json_text));
}

// The node at `path` (text[] elements: keys of objects, integer indexes of arrays,
// negative from the end), or nullptr when a step finds nothing.
const JsonNode* Walk(const JsonNode& root, const Datum& path) {
  const JsonNode* at = &root;
  for (const Datum& step : *path.array) {
    if (step.is_null()) return nullptr;
    if (at->kind == JsonNode::Kind::kObject) {
      at = at->Member(step.s);
    } else if (at->kind == JsonNode::Kind::kArray) {
      char* end = nullptr;
      const long long index = std::strtoll(step.s.c_str(), &end, 10);
      if (step.s.empty() || *end != '\0') return nullptr;
      at = at->Element(index);
    } else {
      return nullptr;
    }
    if (at == nullptr) return nullptr;
  }
  return at;
}

// What -> and #> give: the node's text as written (a jsonb's text is canonical, so its
// sub-texts are too).
Datum NodeValue(const JsonNode* node) { return node ? Datum::String(std::string(node->raw)) : Datum::Null(); }

// What ->> and #>> give: a string's value, SQL NULL for null, else the text as written.
Datum NodeText(const JsonNode* node) {
  if (node == nullptr || node->kind == JsonNode::Kind::kNull) return Datum::Null();
  return Datum::String(JsonScalarText(*node, /*jsonb=*/false));
}

bool HasKey(const JsonNode& j, std::string_view key) {
  switch (j.kind) {
    case JsonNode::Kind::kObject: return j.Member(key) != nullptr;
    case JsonNode::Kind::kArray:
      for (const JsonNode& e : j.items)
        if (e.kind == JsonNode::Kind::kString && e.text == key) return true;
      return false;
    case JsonNode::Kind::kString: return j.text == key;
    default: return false;
  }
}

JsonNode Wrapped(JsonNode node) {
  if (node.kind == JsonNode::Kind::kArray) return node;
  JsonNode array;
  array.kind = JsonNode::Kind::kArray;
  array.items.push_back(std::move(node));
  return array;
}

// jsonb || jsonb: objects merge (the right side's keys win), otherwise arrays concatenate,
// a non-array operand counting as a one-element array.
JsonNode Concat(JsonNode a, JsonNode b) {
  if (a.kind == JsonNode::Kind::kObject && b.kind == JsonNode::Kind::kObject) {
    for (size_t i = 0; i < b.keys.size(); ++i) {
      a.keys.push_back(std::move(b.keys[i]));
      a.items.push_back(std::move(b.items[i]));
    }
    return a;
  }
  JsonNode out = Wrapped(std::move(a));
  for (JsonNode& e : Wrapped(std::move(b)).items) out.items.push_back(std::move(e));
  return out;
}

[[noreturn]] void CannotDelete(const char* what) {
  throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("cannot delete from {}", what));
}

JsonNode Delete(JsonNode j, const Datum& key) {
  if (j.kind != JsonNode::Kind::kObject && j.kind != JsonNode::Kind::kArray) CannotDelete("scalar");
  JsonNode out;
  out.kind = j.kind;
  if (key.kind == Datum::Kind::kInt) {
    if (j.kind == JsonNode::Kind::kObject) CannotDelete("object using integer index");
    const auto n = static_cast<int64_t>(j.items.size());
    const int64_t index = key.i < 0 ? key.i + n : key.i;
    for (int64_t i = 0; i < n; ++i)
      if (i != index) out.items.push_back(std::move(j.items[static_cast<size_t>(i)]));
    return out;
  }
  for (size_t i = 0; i < j.items.size(); ++i) {
    const bool drop = j.kind == JsonNode::Kind::kObject
                          ? j.keys[i] == key.s
                          : j.items[i].kind == JsonNode::Kind::kString && j.items[i].text == key.s;
    if (drop) continue;
    if (j.kind == JsonNode::Kind::kObject) out.keys.push_back(std::move(j.keys[i]));
    out.items.push_back(std::move(j.items[i]));
  }
  return out;
}

// jsonb_set's step: replaces (or, with `create`, adds at the last step) the value at
// path[at..] inside `node`.
void SetPath(JsonNode& node, const std::vector<Datum>& path, size_t at, const JsonNode& value, bool create) {
  if (path[at].is_null())
    throw SqlError(sqlstate::kNullValueNotAllowed, fmt::format("path element at position {} is null", at + 1));
  const bool last = at + 1 == path.size();
  const std::string& step = path[at].s;
  if (node.kind == JsonNode::Kind::kObject) {
    for (size_t i = node.keys.size(); i-- > 0;) {
      if (node.keys[i] != step) continue;
      if (last) node.items[i] = value;
      else SetPath(node.items[i], path, at + 1, value, create);
      return;
    }
    if (last && create) {
      node.keys.push_back(step);
      node.items.push_back(value);
    }
    return;
  }
  if (node.kind != JsonNode::Kind::kArray) return;
  char* end = nullptr;
  const long long index = std::strtoll(step.c_str(), &end, 10);
  if (step.empty() || *end != '\0')
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::format("path element at position {} is not an integer: \"{}\"", at + 1, step));
  const auto n = static_cast<int64_t>(node.items.size());
  const int64_t i = index < 0 ? index + n : index;
  if (i >= 0 && i < n) {
    if (last) node.items[static_cast<size_t>(i)] = value;
    else SetPath(node.items[static_cast<size_t>(i)], path, at + 1, value, create);
    return;
  }
  if (!last || !create) return;
  // Past either end: added there.
  if (i < 0) node.items.insert(node.items.begin(), value);
  else node.items.push_back(value);
}

void StripNulls(JsonNode& node) {
  if (node.kind == JsonNode::Kind::kObject) {
    JsonNode out;
    out.kind = JsonNode::Kind::kObject;
    for (size_t i = 0; i < node.items.size(); ++i) {
      if (node.items[i].kind == JsonNode::Kind::kNull) continue;
      StripNulls(node.items[i]);
      out.keys.push_back(std::move(node.keys[i]));
      out.items.push_back(std::move(node.items[i]));
    }
    node = std::move(out);
  } else if (node.kind == JsonNode::Kind::kArray) {
    for (JsonNode& e : node.items) StripNulls(e);
  }
}

// jsonb_pretty: four spaces per level, one member or element per line (an empty
// container too opens and closes on lines of its own).
void Pretty(std::string& out, const JsonNode& node, int depth) {
  const bool object = node.kind == JsonNode::Kind::kObject;
  if (!object && node.kind != JsonNode::Kind::kArray) {
    out += JsonbText(node);
    return;
  }
  out += object ? "{\n" : "[\n";
  for (size_t i = 0; i < node.items.size(); ++i) {
    out.append(4 * (depth + 1), ' ');
    if (object) out += JsonQuote(node.keys[i]) + ": ";
    Pretty(out, node.items[i], depth + 1);
    out += i + 1 < node.items.size() ? ",\n" : "\n";
  }
  out.append(4 * depth, ' ');
  out += object ? "}" : "]";
}

}  // namespace

Datum EvalJsonFunction(Func func, const SqlType& result, std::span<const Datum> a) {
  // The builders take NULL values as JSON nulls; to_json(NULL) is NULL; the rest are strict.
  switch (func) {
    case Func::kToJson:
      if (a[0].is_null()) return Datum::Null();
      return JsonResult(ToJsonText(a[0], static_cast<TypeId>(a[1].i), static_cast<TypeId>(a[2].i)), result);
    case Func::kJsonBuildObject: {
      std::string out = "{";
      for (size_t i = 0; i + 1 < a.size(); i += 2) {
        if (a[i].is_null())
          throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("argument {} cannot be null", i + 1))
              .WithHint("Object keys should be text.");
        if (i) out += ", ";
        out += JsonQuote(a[i].s) + " : " + (a[i + 1].is_null() ? "null" : a[i + 1].s);
      }
      return JsonResult(out + "}", result);
    }
    case Func::kJsonRow: {
      std::string out = "{";
      for (size_t i = 0; i + 1 < a.size(); i += 2)
        out += (i ? "," : "") + JsonQuote(a[i].s) + ":" + (a[i + 1].is_null() ? "null" : a[i + 1].s);
      return JsonResult(out + "}", result);
    }
    case Func::kJsonAgg: {
      // json_agg over no rows is NULL, as array_agg is; its NULL values are JSON nulls.
      if (a[0].is_null()) return Datum::Null();
      const auto type = static_cast<TypeId>(a[1].i), element = static_cast<TypeId>(a[2].i);
      std::string out = "[";
      for (size_t i = 0; i < a[0].array->size(); ++i) out += (i ? ", " : "") + ToJsonText((*a[0].array)[i], type, element);
      return JsonResult(out + "]", result);
    }
    case Func::kJsonObjectAgg: {
      // Over no rows NULL; `{ "k" : v, ... }` as PostgreSQL's json_object_agg writes it
      // (jsonb_object_agg's keys unique, the last one winning, by JsonResult).
      if (a[0].is_null()) return Datum::Null();
      const SqlType key_type = SqlType::Of(static_cast<TypeId>(a[2].i));
      const auto type = static_cast<TypeId>(a[3].i), element = static_cast<TypeId>(a[4].i);
      if (key_type.is_json())
        throw SqlError(sqlstate::kInvalidParameterValue, "key value must be scalar, not array, composite, or json");
      const std::vector<Datum>& keys = *a[0].array;
      const std::vector<Datum>& values = *a[1].array;
      std::string out = "{ ";
      for (size_t i = 0; i < keys.size() && i < values.size(); ++i) {
        if (keys[i].is_null()) throw SqlError(sqlstate::kInvalidParameterValue, "field name must not be null");
        // The key as to_json writes a scalar (timestamps with their T), as a string.
        std::string key = ToJsonText(keys[i], key_type.id, TypeId::kUnknown);
        if (key.empty() || key[0] != '"') key = JsonQuote(key);
        out += (i ? ", " : "") + key + " : " + ToJsonText(values[i], type, element);
      }
      return JsonResult(out + " }", result);
    }
    case Func::kJsonBuildArray: {
      std::string out = "[";
      for (size_t i = 0; i < a.size(); ++i) out += (i ? ", " : "") + (a[i].is_null() ? std::string("null") : a[i].s);
      return JsonResult(out + "]", result);
    }
    default: break;
  }
  for (const Datum& d : a)
    if (d.is_null()) return Datum::Null();
  switch (func) {
    case Func::kJsonGet:
    case Func::kJsonGetText: {
      const JsonNode j = ParseJson(a[0].s);
      const JsonNode* node = a[1].kind == Datum::Kind::kInt ? j.Element(a[1].i) : j.Member(a[1].s);
      return func == Func::kJsonGet ? NodeValue(node) : NodeText(node);
    }
    case Func::kJsonPath:
    case Func::kJsonPathText: {
      const JsonNode j = ParseJson(a[0].s);
      const JsonNode* node = Walk(j, a[1]);
      return func == Func::kJsonPath ? NodeValue(node) : NodeText(node);
    }
    case Func::kJsonbContains: return Datum::Bool(JsonbContains(ParseJson(a[0].s), ParseJson(a[1].s)));
    case Func::kJsonbExists: return Datum::Bool(HasKey(ParseJson(a[0].s), a[1].s));
    case Func::kJsonbExistsAny:
    case Func::kJsonbExistsAll: {
      const JsonNode j = ParseJson(a[0].s);
      const bool all = func == Func::kJsonbExistsAll;
      for (const Datum& key : *a[1].array) {
        if (key.is_null()) continue;
        if (HasKey(j, key.s) != all) return Datum::Bool(!all);
      }
      return Datum::Bool(all);
    }
    case Func::kJsonbConcat: return Datum::String(JsonbText(ToJsonb(Concat(ParseJson(a[0].s), ParseJson(a[1].s)))));
    case Func::kJsonbDelete: return Datum::String(JsonbText(ToJsonb(Delete(ParseJson(a[0].s), a[1]))));
    case Func::kJsonTypeof: return Datum::String(std::string(JsonTypeName(ParseJson(a[0].s))));
    case Func::kJsonArrayLength: {
      const JsonNode j = ParseJson(a[0].s);
      if (j.kind != JsonNode::Kind::kArray)
        throw SqlError(sqlstate::kInvalidParameterValue, j.kind == JsonNode::Kind::kObject
                                                             ? "cannot get array length of a non-array"
                                                             : "cannot get array length of a scalar");
      return Datum::Int(static_cast<int64_t>(j.items.size()));
    }
    case Func::kJsonbSet: {
      JsonNode j = ToJsonb(ParseJson(a[0].s));
      if (j.kind != JsonNode::Kind::kObject && j.kind != JsonNode::Kind::kArray)
        throw SqlError(sqlstate::kInvalidParameterValue, "cannot set path in scalar");
      if (!a[1].array->empty()) SetPath(j, *a[1].array, 0, ToJsonb(ParseJson(a[2].s)), a.size() < 4 || a[3].as_bool());
      return Datum::String(JsonbText(ToJsonb(std::move(j))));
    }
    case Func::kJsonbStripNulls: {
      JsonNode j = ToJsonb(ParseJson(a[0].s));
      StripNulls(j);
      return Datum::String(JsonbText(j));
    }
    case Func::kJsonArrayItems: {
      const JsonNode j = ParseJson(a[0].s);
      if (j.kind != JsonNode::Kind::kArray)
        throw SqlError(sqlstate::kInvalidParameterValue,
                       j.kind == JsonNode::Kind::kObject ? "cannot extract elements from an object"
                                                         : "cannot extract elements from a scalar");
      std::vector<Datum> out;
      for (const JsonNode& e : j.items) out.push_back(a[1].as_bool() ? NodeText(&e) : NodeValue(&e));
      return Datum::Array(std::move(out));
    }
    case Func::kJsonObjectParts: {
      const JsonNode j = ParseJson(a[0].s);
      if (j.kind != JsonNode::Kind::kObject) {
        const bool keys = a[2].s.ends_with("object_keys");
        const bool array = j.kind == JsonNode::Kind::kArray;
        std::string message = keys ? fmt::format("cannot call {} on {}", a[2].s, array ? "an array" : "a scalar")
                                   : fmt::format("cannot call {} on a non-object", a[2].s);
        // json_each over json words it as PostgreSQL's json.c does.
        if (!keys && !a[2].s.starts_with("jsonb"))
          message = array ? "cannot deconstruct an array as an object" : "cannot deconstruct a scalar";
        throw SqlError(sqlstate::kInvalidParameterValue, message);
      }
      std::vector<Datum> out;
      for (size_t i = 0; i < j.items.size(); ++i) {
        switch (a[1].i) {
          case 0: out.push_back(Datum::String(j.keys[i])); break;
          case 1: out.push_back(NodeValue(&j.items[i])); break;
          default: out.push_back(NodeText(&j.items[i])); break;
        }
      }
      return Datum::Array(std::move(out));
    }
    case Func::kJsonbPretty: {
      std::string out;
      Pretty(out, ToJsonb(ParseJson(a[0].s)), 0);
      return Datum::String(std::move(out));
    }
    default: throw SqlError(sqlstate::kInternalError, "not a json function");
  }
}

}  // namespace caracal::planner
