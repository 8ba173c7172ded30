#include "server/scram.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <vector>

namespace caracal::server {

std::string Base64Encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(n);
  return out;
}

std::string Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) throw AuthenticationError("malformed base64");
  std::string out(3 * text.size() / 4 + 1, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) throw AuthenticationError("malformed base64");
  size_t pad = 0;
  if (!text.empty() && text.back() == '=') ++pad;
  if (text.size() > 1 && text[text.size() - 2] == '=') ++pad;
  out.resize(static_cast<size_t>(n) - pad);
  return out;
}

namespace {

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), md, &len);
  return std::string(reinterpret_cast<char*>(md), len);
}

std::string Sha256(std::string_view data) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), md);
  return std::string(reinterpret_cast<char*>(md), sizeof md);
}

std::string RandomBytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1)
    throw AuthenticationError("could not generate a random nonce");
  return out;
}

// The value of attribute `name` ("r", "s", ...) in a comma-separated SCRAM message.
std::string Attribute(std::string_view message, char name) {
  size_t pos = 0;
  while (pos <= message.size()) {
    size_t end = message.find(',', pos);
    if (end == std::string_view::npos) end = message.size();
    std::string_view part = message.substr(pos, end - pos);
    if (part.size() >= 2 && part[0] == name && part[1] == '=') return std::string(part.substr(2));
    pos = end + 1;
  }
  throw AuthenticationError(std::string("malformed SCRAM message: attribute \"") + name + "\" missing");
}

}  // namespace

ScramServer::ScramServer(std::string password) : password_(std::move(password)) {}

std::string ScramServer::ClientFirst(std::string_view message) {
  // gs2-header: "n,," (no channel binding) or "y,," (client supports it, we do not).
  if (message.size() < 3 || (message[0] != 'n' && message[0] != 'y') || message[1] != ',')
    throw AuthenticationError("malformed SCRAM message: channel binding is not supported");
  size_t second = message.find(',', 2);
  if (second == std::string_view::npos) throw AuthenticationError("malformed SCRAM message");
  client_first_bare_ = std::string(message.substr(second + 1));
  std::string client_nonce = Attribute(client_first_bare_, 'r');
  if (client_nonce.empty()) throw AuthenticationError("malformed SCRAM message: empty nonce");
  nonce_ = client_nonce + Base64Encode(RandomBytes(18));
  salt_ = RandomBytes(16);
  server_first_ = "r=" + nonce_ + ",s=" + Base64Encode(salt_) + ",i=" + std::to_string(iterations_);
  return server_first_;
}

std::string ScramServer::ClientFinal(std::string_view message) {
  if (server_first_.empty()) throw AuthenticationError("malformed SCRAM exchange");
  std::string nonce = Attribute(message, 'r');
  std::string channel = Attribute(message, 'c');
  if (nonce != nonce_) throw AuthenticationError("malformed SCRAM message: wrong nonce");
  if (channel != "biws" && channel != "eSws") throw AuthenticationError("malformed SCRAM message: unexpected channel binding");
  size_t proof_at = message.rfind(",p=");
  if (proof_at == std::string_view::npos) throw AuthenticationError("malformed SCRAM message: proof missing");
  std::string proof = Base64Decode(message.substr(proof_at + 3));
  std::string without_proof(message.substr(0, proof_at));

  unsigned char salted[SHA256_DIGEST_LENGTH];
  PKCS5_PBKDF2_HMAC(password_.data(), static_cast<int>(password_.size()),
                    reinterpret_cast<const unsigned char*>(salt_.data()), static_cast<int>(salt_.size()), iterations_,
                    EVP_sha256(), sizeof salted, salted);
  std::string salted_password(reinterpret_cast<char*>(salted), sizeof salted);
  std::string client_key = Hmac(salted_password, "Client Key");
  std::string stored_key = Sha256(client_key);
  std::string auth_message = client_first_bare_ + "," + server_first_ + "," + without_proof;
  std::string client_signature = Hmac(stored_key, auth_message);
  if (proof.size() != client_signature.size()) throw AuthenticationError("password authentication failed");
  std::string recovered(proof.size(), '\0');
  for (size_t i = 0; i < proof.size(); ++i) recovered[i] = static_cast<char>(proof[i] ^ client_signature[i]);
  if (CRYPTO_memcmp(Sha256(recovered).data(), stored_key.data(), stored_key.size()) != 0)
    throw AuthenticationError("password authentication failed");
  std::string server_key = Hmac(salted_password, "Server Key");
  return "v=" + Base64Encode(Hmac(server_key, auth_message));
}

}  // namespace caracal::server
