// The PostgreSQL frontend/backend protocol v3 at the byte level: reading the fields of
// one frontend message, and building backend messages into a reply buffer. Nothing
// here touches a socket or the database; a malformed message surfaces as ProtocolError
// (the connection answers with an ErrorResponse and closes).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace caracal::server {

// Start-up packet codes (the first int32 after the length).
inline constexpr int32_t kProtocolV3 = 196608;        // 3.0
inline constexpr int32_t kSslRequestCode = 80877103;
inline constexpr int32_t kGssEncRequestCode = 80877104;
inline constexpr int32_t kCancelRequestCode = 80877102;

// A client broke the protocol: reported with SQLSTATE 08P01 and the connection closed.
class ProtocolError : public std::runtime_error {
 public:
  explicit ProtocolError(const std::string& message, std::string sqlstate = "08P01")
      : std::runtime_error(message), sqlstate_(std::move(sqlstate)) {}
  const std::string& sqlstate() const { return sqlstate_; }

 private:
  std::string sqlstate_;
};

// Reads the body of one message, field by field; every read checks the bounds.
class MessageReader {
 public:
  explicit MessageReader(std::string_view body) : body_(body) {}
  int8_t Byte();
  int16_t Int16();
  int32_t Int32();
  // A NUL-terminated string.
  std::string String();
  // `n` raw bytes.
  std::string_view Bytes(size_t n);
  size_t remaining() const { return body_.size() - pos_; }
  // Throws unless the whole body was read (a message with trailing garbage is invalid).
  void ExpectEnd() const;

 private:
  void Need(size_t n) const;
  std::string_view body_;
  size_t pos_ = 0;
};

// PostgreSQL's ErrorResponse / NoticeResponse fields.
struct ErrorFields {
  std::string severity = "ERROR";  // ERROR, FATAL, NOTICE, WARNING
  std::string sqlstate = "XX000";
  std::string message;
  std::string detail, hint, context;
  int position = 0;  // 1-based character position in the query, 0: none
};

// One column of a RowDescription.
struct FieldDescription {
  std::string name;
  int32_t type_oid = 25;
  int16_t type_size = -1;
  int32_t type_modifier = -1;
  int16_t format = 0;  // 0 text, 1 binary
};

// Backend messages appended to one buffer, sent when the connection flushes.
class ReplyBuffer {
 public:
  void AuthenticationOk();
  void AuthenticationSasl(const std::vector<std::string>& mechanisms);
  void AuthenticationSaslContinue(std::string_view data);
  void AuthenticationSaslFinal(std::string_view data);
  void AuthenticationCleartextPassword();
  void ParameterStatus(std::string_view name, std::string_view value);
  void BackendKeyData(int32_t pid, int32_t secret);
  void ReadyForQuery(char status);
  void RowDescription(const std::vector<FieldDescription>& fields);
  // Each value is raw bytes in the column's format; nullopt is NULL.
  void DataRow(const std::vector<std::optional<std::string>>& values);
  void CommandComplete(std::string_view tag);
  void EmptyQueryResponse();
  void Error(const ErrorFields& e) { Fields('E', e); }
  void Notice(const ErrorFields& e) { Fields('N', e); }
  void ParseComplete();
  void BindComplete();
  void CloseComplete();
  void NoData();
  void PortalSuspended();
  void ParameterDescription(const std::vector<int32_t>& oids);
  // COPY ... FROM STDIN: the client sends CopyData now (text format, `columns` of them).
  void CopyInResponse(int16_t columns);
  // COPY ... TO STDOUT: CopyOutResponse, the data as CopyData, one message per line, CopyDone.
  void CopyOut(std::string_view data);

  std::string& bytes() { return out_; }
  bool empty() const { return out_.empty(); }
  void clear() { out_.clear(); }

 private:
  // Starts a message of `type`; End() patches its length.
  void Begin(char type);
  void End();
  void Int16(int16_t v);
  void Int32(int32_t v);
  void String(std::string_view s);  // with the NUL
  void Fields(char type, const ErrorFields& e);

  std::string out_;
  size_t start_ = 0;
};

}  // namespace caracal::server
