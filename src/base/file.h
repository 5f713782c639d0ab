// Files: whole-file reads, atomic writes (temp file + rename, so a failed run never
// leaves a half-written output) and read-only memory maps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace oc {

Result<std::string> ReadFile(const std::string& path);
// Writes `data` to `path` through a temporary file in the same folder. `check`, when given,
// reads the complete temporary file first: its error leaves nothing at `path`.
Status WriteFileAtomic(const std::string& path, std::string_view data,
                       const std::function<Status(const std::string& written)>& check = {});
// Fills a folder through a staging sibling (`out` + ".<tag>-tmp.<pid>") renamed into place
// at the end: a failed or killed run never leaves a folder at `out` that looks complete.
// `out` must not exist or be an empty folder.
Status WriteFolderAtomic(const std::string& out, const std::string& tag,
                         const std::function<Status(const std::string& staging)>& fill);
bool FileExists(const std::string& path);
bool IsDirectory(const std::string& path);
// A regular file (not a folder, FIFO, socket or device, which would block or never end).
bool IsRegularFile(const std::string& path);
// Creates `path` and its missing parents (like mkdir -p).
Status CreateDirectories(const std::string& path);
// The regular files directly in `dir`, sorted by name.
std::vector<std::string> ListFiles(const std::string& dir);

// A read-only mapping of a whole file; the memory stays valid while the object lives.
class MappedFile {
 public:
  static Result<std::shared_ptr<MappedFile>> Open(const std::string& path);
  // Wraps a copy of caller memory in the same interface (LoadFromMem).
  static std::shared_ptr<MappedFile> FromCopy(const void* data, size_t size);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  // The whole pages inside [p, p + n) are dropped from this process (madvise DONTNEED);
  // reading them again faults them back in from the file. Only a file mapping can do this
  // (a copy would read back zeros): returns the bytes released, 0 otherwise.
  size_t ReleasePages(const void* p, size_t n) const;

 private:
  MappedFile() = default;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
  // Aligned copies are freed as they were allocated (std::free of aligned_alloc).
  struct FreeDeleter {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, FreeDeleter> owned_;
};

}  // namespace oc
