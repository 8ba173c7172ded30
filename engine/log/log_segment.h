// Log segment files and the small file-system helpers durability needs.
//
// The input log of a data directory is a series of segment files in DATADIR/log, named
// by the LSN of their first record (`00000000000000000001.log`), each starting with a
// 32-byte header:
//
//   magic "CRCLLOG1" | format version u32 | reserved u32 | first LSN u64 | checksum u64
//
// followed by whole records (log_record.h). Only the newest segment is ever appended to;
// a new one is created (and the directory synced) only once the previous one is durable,
// so a torn record can only be at the end of the newest segment.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace caracal::engine {

constexpr size_t kSegmentHeaderBytes = 32;
constexpr uint32_t kLogFormatVersion = 1;

std::string EncodeSegmentHeader(uint64_t first_lsn);
// False (with `why`) if `bytes` does not start with a whole, valid segment header.
bool ParseSegmentHeader(std::string_view bytes, uint64_t& first_lsn, std::string& why);

std::filesystem::path SegmentPath(const std::filesystem::path& log_dir, uint64_t first_lsn);

struct SegmentFile {
  std::filesystem::path path;
  uint64_t first_lsn = 0;  // from the name
};
// The segment files of `log_dir`, by first LSN (none if the directory does not exist).
std::vector<SegmentFile> ListSegments(const std::filesystem::path& log_dir);

// POSIX helpers that throw std::system_error naming the path.
int OpenFile(const std::filesystem::path& path, int flags, int mode = 0644);
void WriteAll(int fd, std::string_view bytes, const std::filesystem::path& path);
void SyncFile(int fd, const std::filesystem::path& path, bool data_only);
// fsync of a directory, so that file creations, renames and deletions in it are durable.
void SyncDirectory(const std::filesystem::path& dir);
std::string ReadWholeFile(const std::filesystem::path& path);

// An open file descriptor, closed on destruction.
class FileHandle {
 public:
  FileHandle() = default;
  explicit FileHandle(int fd) : fd_(fd) {}
  ~FileHandle();
  FileHandle(FileHandle&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  FileHandle& operator=(FileHandle&& o) noexcept;
  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  void Close();

 private:
  int fd_ = -1;
};

}  // namespace caracal::engine
