#include "server/protocol.h"

#include <cstring>

#include <fmt/format.h>

namespace caracal::server {

void MessageReader::Need(size_t n) const {
  if (n > body_.size() - pos_) throw ProtocolError("invalid message format: message is shorter than its fields");
}

int8_t MessageReader::Byte() {
  Need(1);
  return static_cast<int8_t>(body_[pos_++]);
}

int16_t MessageReader::Int16() {
  Need(2);
  auto b = reinterpret_cast<const unsigned char*>(body_.data() + pos_);
  pos_ += 2;
  return static_cast<int16_t>((b[0] << 8) | b[1]);
}

int32_t MessageReader::Int32() {
  Need(4);
  auto b = reinterpret_cast<const unsigned char*>(body_.data() + pos_);
  pos_ += 4;
  return static_cast<int32_t>((uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3]);
}

std::string MessageReader::String() {
  size_t end = body_.find('\0', pos_);
  if (end == std::string_view::npos) throw ProtocolError("invalid string in message");
  std::string s(body_.substr(pos_, end - pos_));
  pos_ = end + 1;
  return s;
}

std::string_view MessageReader::Bytes(size_t n) {
  Need(n);
  std::string_view v = body_.substr(pos_, n);
  pos_ += n;
  return v;
}

void MessageReader::ExpectEnd() const {
  if (pos_ != body_.size()) throw ProtocolError("invalid message format");
}

void ReplyBuffer::Begin(char type) {
  out_.push_back(type);
  start_ = out_.size();
  out_.append(4, '\0');
}

void ReplyBuffer::End() {
  uint32_t len = static_cast<uint32_t>(out_.size() - start_);
  out_[start_] = static_cast<char>(len >> 24);
  out_[start_ + 1] = static_cast<char>(len >> 16);
  out_[start_ + 2] = static_cast<char>(len >> 8);
  out_[start_ + 3] = static_cast<char>(len);
}

void ReplyBuffer::Int16(int16_t v) {
  out_.push_back(static_cast<char>(static_cast<uint16_t>(v) >> 8));
  out_.push_back(static_cast<char>(v));
}

void ReplyBuffer::Int32(int32_t v) {
  uint32_t u = static_cast<uint32_t>(v);
  for (int shift = 24; shift >= 0; shift -= 8) out_.push_back(static_cast<char>(u >> shift));
}

void ReplyBuffer::String(std::string_view s) {
  out_.append(s);
  out_.push_back('\0');
}

void ReplyBuffer::AuthenticationOk() {
  Begin('R');
  Int32(0);
  End();
}

void ReplyBuffer::AuthenticationCleartextPassword() {
  Begin('R');
  Int32(3);
  End();
}

void ReplyBuffer::AuthenticationSasl(const std::vector<std::string>& mechanisms) {
  Begin('R');
  Int32(10);
  for (const std::string& m : mechanisms) String(m);
  out_.push_back('\0');
  End();
}

void ReplyBuffer::AuthenticationSaslContinue(std::string_view data) {
  Begin('R');
  Int32(11);
  out_.append(data);
  End();
}

void ReplyBuffer::AuthenticationSaslFinal(std::string_view data) {
  Begin('R');
  Int32(12);
  out_.append(data);
  End();
}

void ReplyBuffer::ParameterStatus(std::string_view name, std::string_view value) {
  Begin('S');
  String(name);
  String(value);
  End();
}

void ReplyBuffer::BackendKeyData(int32_t pid, int32_t secret) {
  Begin('K');
  Int32(pid);
  Int32(secret);
  End();
}

void ReplyBuffer::ReadyForQuery(char status) {
  Begin('Z');
  out_.push_back(status);
  End();
}

void ReplyBuffer::RowDescription(const std::vector<FieldDescription>& fields) {
  Begin('T');
  Int16(static_cast<int16_t>(fields.size()));
  for (const FieldDescription& f : fields) {
    String(f.name);
    Int32(0);  // table oid
    Int16(0);  // column number
    Int32(f.type_oid);
    Int16(f.type_size);
    Int32(f.type_modifier);
    Int16(f.format);
  }
  End();
}

void ReplyBuffer::DataRow(const std::vector<std::optional<std::string>>& values) {
  Begin('D');
  Int16(static_cast<int16_t>(values.size()));
  for (const std::optional<std::string>& v : values) {
    if (!v) {
      Int32(-1);
      continue;
    }
    Int32(static_cast<int32_t>(v->size()));
    out_.append(*v);
  }
  End();
}

void ReplyBuffer::CopyInResponse(int16_t columns) {
  Begin('G');
  out_.push_back(0);  // text
  Int16(columns);
  for (int16_t i = 0; i < columns; ++i) Int16(0);
  End();
}

void ReplyBuffer::CopyOut(std::string_view data) {
  Begin('H');
  out_.push_back(0);  // text
  Int16(0);
  End();
  for (size_t pos = 0; pos < data.size();) {
    size_t end = data.find('\n', pos);
    end = end == std::string_view::npos ? data.size() : end + 1;
    Begin('d');
    out_.append(data.substr(pos, end - pos));
    End();
    pos = end;
  }
  Begin('c');
  End();
}

void ReplyBuffer::CommandComplete(std::string_view tag) {
  Begin('C');
  String(tag);
  End();
}

void ReplyBuffer::EmptyQueryResponse() {
  Begin('I');
  End();
}

void ReplyBuffer::ParseComplete() {
  Begin('1');
  End();
}

void ReplyBuffer::BindComplete() {
  Begin('2');
  End();
}

void ReplyBuffer::CloseComplete() {
  Begin('3');
  End();
}

void ReplyBuffer::NoData() {
  Begin('n');
  End();
}

void ReplyBuffer::PortalSuspended() {
  Begin('s');
  End();
}

void ReplyBuffer::ParameterDescription(const std::vector<int32_t>& oids) {
  Begin('t');
  Int16(static_cast<int16_t>(oids.size()));
  for (int32_t oid : oids) Int32(oid);
  End();
}

void ReplyBuffer::Fields(char type, const ErrorFields& e) {
  Begin(type);
  auto field = [&](char code, std::string_view value) {
    if (value.empty()) return;
    out_.push_back(code);
    String(value);
  };
  field('S', e.severity);
  field('V', e.severity);
  field('C', e.sqlstate);
  field('M', e.message);
  field('D', e.detail);
  field('H', e.hint);
  if (e.position > 0) field('P', std::to_string(e.position));
  field('W', e.context);
  out_.push_back('\0');
  End();
}

}  // namespace caracal::server
