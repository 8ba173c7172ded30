#include "engine/log/log_segment.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "engine/log/log_codec.h"

namespace caracal::engine {

namespace {

constexpr std::string_view kSegmentMagic = "CRCLLOG1";

[[noreturn]] void ThrowErrno(const std::string& what, const std::filesystem::path& path) {
  throw std::system_error(errno, std::generic_category(), fmt::format("{} \"{}\"", what, path.string()));
}

}  // namespace

std::string EncodeSegmentHeader(uint64_t first_lsn) {
  std::string out;
  ByteWriter w(out);
  w.Raw(kSegmentMagic);
  w.U32(kLogFormatVersion);
  w.U32(0);
  w.U64(first_lsn);
  w.U64(Checksum(out));
  return out;
}

bool ParseSegmentHeader(std::string_view bytes, uint64_t& first_lsn, std::string& why) {
  if (bytes.size() < kSegmentHeaderBytes) {
    why = fmt::format("torn segment header ({} bytes)", bytes.size());
    return false;
  }
  if (bytes.substr(0, kSegmentMagic.size()) != kSegmentMagic) {
    why = "not a caracal log segment (bad magic)";
    return false;
  }
  ByteReader r(bytes.substr(kSegmentMagic.size(), kSegmentHeaderBytes - kSegmentMagic.size()), "segment header");
  const uint32_t version = r.U32();
  r.U32();
  first_lsn = r.U64();
  if (r.U64() != Checksum(bytes.substr(0, kSegmentHeaderBytes - 8))) {
    why = "segment header checksum mismatch";
    return false;
  }
  if (version != kLogFormatVersion) {
    why = fmt::format("log format version {} (this build reads version {})", version, kLogFormatVersion);
    return false;
  }
  return true;
}

std::filesystem::path SegmentPath(const std::filesystem::path& log_dir, uint64_t first_lsn) {
  return log_dir / fmt::format("{:020}.log", first_lsn);
}

std::vector<SegmentFile> ListSegments(const std::filesystem::path& log_dir) {
  std::vector<SegmentFile> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(log_dir, ec)) return out;
  for (const auto& entry : std::filesystem::directory_iterator(log_dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() != 24 || !name.ends_with(".log")) continue;
    if (!std::all_of(name.begin(), name.begin() + 20, [](char c) { return c >= '0' && c <= '9'; })) continue;
    out.push_back({entry.path(), std::stoull(name.substr(0, 20))});
  }
  std::sort(out.begin(), out.end(), [](const SegmentFile& a, const SegmentFile& b) { return a.first_lsn < b.first_lsn; });
  return out;
}

int OpenFile(const std::filesystem::path& path, int flags, int mode) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC, mode);
  if (fd < 0) ThrowErrno("could not open file", path);
  return fd;
}

void WriteAll(int fd, std::string_view bytes, const std::filesystem::path& path) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      ThrowErrno("could not write to file", path);
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

void SyncFile(int fd, const std::filesystem::path& path, bool data_only) {
  if ((data_only ? ::fdatasync(fd) : ::fsync(fd)) != 0) ThrowErrno("could not fsync file", path);
}

void SyncDirectory(const std::filesystem::path& dir) {
  FileHandle fd(OpenFile(dir, O_RDONLY | O_DIRECTORY));
  SyncFile(fd.get(), dir, false);
}

std::string ReadWholeFile(const std::filesystem::path& path) {
  FileHandle fd(OpenFile(path, O_RDONLY));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) ThrowErrno("could not stat file", path);
  std::string out(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::read(fd.get(), out.data() + done, out.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ThrowErrno("could not read file", path);
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  out.resize(done);
  return out;
}

FileHandle::~FileHandle() { Close(); }

FileHandle& FileHandle::operator=(FileHandle&& o) noexcept {
  if (this != &o) {
    Close();
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

void FileHandle::Close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace caracal::engine
