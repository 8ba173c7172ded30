#include "planner/expr/bytes_builtins.h"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cctype>
#include <string>

#include "planner/types/bytes_text.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// A version 4 (random) uuid from three random() values: each carries 53 random bits
// (random_draws.h), of which the first 128 are taken, then the version and variant
// bits are set as RFC 4122 asks (what PostgreSQL's gen_random_uuid does with its bytes).
std::string UuidFromDraws(std::span<const Datum> draws) {
  std::string out(16, '\0');
  int bit = 0;
  for (const Datum& d : draws) {
    const auto bits = static_cast<uint64_t>(d.f * 9007199254740992.0);  // * 2^53, exact
    for (int i = 52; i >= 0 && bit < 128; --i, ++bit)
      if (bits >> i & 1) out[static_cast<size_t>(bit / 8)] |= static_cast<char>(0x80 >> (bit % 8));
  }
  out[6] = static_cast<char>((out[6] & 0x0f) | 0x40);
  out[8] = static_cast<char>((out[8] & 0x3f) | 0x80);
  return out;
}

std::string Digest(const EVP_MD* md, std::string_view bytes) {
  unsigned char buf[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), buf, &n, md, nullptr) != 1)
    throw SqlError(sqlstate::kInternalError, "could not compute a digest");
  return std::string(reinterpret_cast<const char*>(buf), n);
}

// pgcrypto's digest names (case-insensitive).
const EVP_MD* DigestNamed(std::string_view name) {
  std::string n;
  for (char c : name) n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (n == "md5") return EVP_md5();
  if (n == "sha1") return EVP_sha1();
  if (n == "sha224") return EVP_sha224();
  if (n == "sha256") return EVP_sha256();
  if (n == "sha384") return EVP_sha384();
  if (n == "sha512") return EVP_sha512();
  throw SqlError("39000", "Cannot use \"" + std::string(name) + "\": No such hash algorithm");
}

// The server encoding is UTF8, and so is every conversion here.
void CheckUtf8Name(std::string_view name, const char* which) {
  std::string n;
  for (char c : name)
    if (c != '-' && c != '_') n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (n == "utf8" || n == "unicode") return;
  static constexpr const char* kKnown[] = {"sqlascii", "latin1", "latin2", "latin9", "win1252", "win1251", "euc_jp",
                                           "eucjp",    "sjis",   "gbk",    "big5",   "koi8r",   "iso88591"};
  for (const char* k : kKnown)
    if (n == k)
      throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("conversion between UTF8 and {} is not supported here", name))
          .WithHint("The database encoding is UTF8, and so is every conversion.");
  throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("invalid {} encoding name \"{}\"", which, name));
}

// Raises PostgreSQL's 22021 at the first byte sequence that is not UTF-8.
void CheckUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto lead = static_cast<unsigned char>(s[i]);
    size_t len = lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : (lead >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && lead != 0 && i + len <= s.size();
    for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    if (ok) {
      i += len;
      continue;
    }
    std::string shown;
    const size_t n = std::min(std::max<size_t>(len, 1), s.size() - i);
    for (size_t k = 0; k < n; ++k)
      shown += fmt::format("{}0x{:02x}", k ? " " : "", static_cast<unsigned char>(s[i + k]));
    throw SqlError("22021", fmt::format("invalid byte sequence for encoding \"UTF8\": {}", shown));
  }
}

std::string LowerHex(std::string_view bytes) {
  std::string out;
  for (char c : bytes) out += fmt::format("{:02x}", static_cast<unsigned char>(c));
  return out;
}

}  // namespace

Datum EvalBytesFunction(Func func, std::span<const Datum> a) {
  for (const Datum& d : a)
    if (d.is_null()) return Datum::Null();
  switch (func) {
    case Func::kUuidFromDraws: return Datum::String(UuidFromDraws(a));
    case Func::kMd5: return Datum::String(LowerHex(Digest(EVP_md5(), a[0].s)));
    case Func::kSha224: return Datum::String(Digest(EVP_sha224(), a[0].s));
    case Func::kSha256: return Datum::String(Digest(EVP_sha256(), a[0].s));
    case Func::kSha384: return Datum::String(Digest(EVP_sha384(), a[0].s));
    case Func::kSha512: return Datum::String(Digest(EVP_sha512(), a[0].s));
    case Func::kEncode: return Datum::String(EncodeBytes(a[0].s, a[1].s));
    case Func::kDecode: return Datum::String(DecodeBytes(a[0].s, a[1].s));
    case Func::kConvertTo:
      CheckUtf8Name(a[1].s, "destination");
      return a[0];
    case Func::kConvertFrom:
      CheckUtf8Name(a[1].s, "source");
      CheckUtf8(a[0].s);
      return a[0];
    case Func::kUuidNameBased: {
      // RFC 4122 name-based uuids: the digest of namespace and name, version and variant set.
      const bool v5 = a[2].i == 5;
      std::string out = Digest(v5 ? EVP_sha1() : EVP_md5(), a[0].s + a[1].s).substr(0, 16);
      out[6] = static_cast<char>((out[6] & 0x0f) | (v5 ? 0x50 : 0x30));
      out[8] = static_cast<char>((out[8] & 0x3f) | 0x80);
      return Datum::String(std::move(out));
    }
    case Func::kDigest: return Datum::String(Digest(DigestNamed(a[1].s), a[0].s));
    case Func::kHmac: {
      unsigned char buf[EVP_MAX_MD_SIZE];
      unsigned int n = 0;
      if (HMAC(DigestNamed(a[2].s), a[1].s.data(), static_cast<int>(a[1].s.size()),
               reinterpret_cast<const unsigned char*>(a[0].s.data()), a[0].s.size(), buf, &n) == nullptr)
        throw SqlError(sqlstate::kInternalError, "could not compute an HMAC");
      return Datum::String(std::string(reinterpret_cast<const char*>(buf), n));
    }
    case Func::kGetByte: {
      const auto n = static_cast<int64_t>(a[0].s.size());
      if (a[1].i < 0 || a[1].i >= n)
        throw SqlError("2202E", fmt::format("index {} out of valid range, 0..{}", a[1].i, n - 1));
      return Datum::Int(static_cast<unsigned char>(a[0].s[static_cast<size_t>(a[1].i)]));
    }
    default: throw SqlError(sqlstate::kInternalError, "not a byte-type function");
  }
}

}  // namespace caracal::planner
