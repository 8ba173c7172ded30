// ScramServer: the server side of SCRAM-SHA-256 authentication (RFC 5802, RFC 7677) as
// PostgreSQL runs it inside SASL messages: no channel binding ("n,," / "y,,"), the user
// name in the SCRAM messages ignored (the start-up packet's counts), 4096 PBKDF2
// iterations. Cryptography is OpenSSL's (PBKDF2, HMAC, SHA-256, base64, RAND_bytes).
// Passwords are used as given (no SASLprep normalisation of non-ASCII passwords).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace caracal::server {

// Authentication failed or the exchange was malformed (reported as 28P01 / 08P01).
class AuthenticationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ScramServer {
 public:
  explicit ScramServer(std::string password);
  // client-first-message -> server-first-message. Throws AuthenticationError.
  std::string ClientFirst(std::string_view message);
  // client-final-message -> server-final-message ("v=..."). Throws AuthenticationError
  // when the proof is wrong.
  std::string ClientFinal(std::string_view message);

  static constexpr const char* kMechanism = "SCRAM-SHA-256";

 private:
  std::string password_;
  std::string client_first_bare_;
  std::string server_first_;
  std::string nonce_;  // client nonce + server nonce
  std::string salt_;
  int iterations_ = 4096;
};

// Base64 (standard alphabet, padded), as SCRAM uses it.
std::string Base64Encode(std::string_view bytes);
// Throws AuthenticationError on malformed input.
std::string Base64Decode(std::string_view text);

}  // namespace caracal::server
