#include "base/file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>

namespace oc {

Result<std::string> ReadFile(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0)
    return NotFound("cannot open file [" + path + "]: " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return InvalidArgument("[" + path + "] is a directory, not a file");
  // A FIFO or device would block or never end: only regular files are read.
  if (!S_ISREG(st.st_mode)) return InvalidArgument("[" + path + "] is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError("cannot read file [" + path + "]");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return IoError("error while reading file [" + path + "]");
  return ss.str();
}

Status WriteFileAtomic(const std::string& path, std::string_view data,
                       const std::function<Status(const std::string& written)>& check) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) return IoError("cannot create [" + tmp + "]: " + std::strerror(errno));
  size_t written = data.empty() ? 0 : std::fwrite(data.data(), 1, data.size(), f);
  bool ok = written == data.size();
  ok = (std::fflush(f) == 0) && ok;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) {
    std::remove(tmp.c_str());
    return IoError("cannot write [" + path + "]: " + std::strerror(errno));
  }
  if (check) {
    Status checked = check(tmp);
    if (!checked.ok()) {
      std::remove(tmp.c_str());
      return checked;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return IoError("cannot rename to [" + path + "]: " + std::strerror(errno));
  }
  return Status::Ok();
}

Status WriteFolderAtomic(const std::string& out_dir, const std::string& tag,
                         const std::function<Status(const std::string& staging)>& fill) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string out = out_dir;
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  if (fs::exists(out, ec) && (!fs::is_directory(out, ec) || !fs::is_empty(out, ec)))
    return InvalidArgument("output folder [" + out_dir +
                           "] already holds files; give an empty or new folder");
  const fs::path parent = fs::path(out).parent_path();
  if (!parent.empty()) OC_RETURN_IF_ERROR(CreateDirectories(parent.string()));
  const std::string staging = out + "." + tag + "-tmp." + std::to_string(getpid());
  fs::remove_all(staging, ec);
  fs::create_directory(staging, ec);
  if (ec) return IoError("cannot create [" + staging + "]: " + ec.message());
  Status s = fill(staging);
  if (s.ok()) {
    if (fs::exists(out, ec)) fs::remove(out, ec);  // the empty folder the user gave
    fs::rename(staging, out, ec);
    if (ec) s = IoError("cannot move the result into [" + out + "]: " + ec.message());
  }
  if (!s.ok()) fs::remove_all(staging, ec);
  return s;
}

bool FileExists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

bool IsRegularFile(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool IsDirectory(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

Status CreateDirectories(const std::string& path) {
  std::string cur;
  for (size_t i = 0; i <= path.size(); ++i) {
    if ((i == path.size() || path[i] == '/') && !cur.empty() && !IsDirectory(cur) &&
        ::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST)
      return IoError("cannot create folder [" + cur + "]: " + std::strerror(errno));
    if (i < path.size()) cur += path[i];
  }
  return Status::Ok();
}

std::vector<std::string> ListFiles(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      const std::string path = dir + "/" + e->d_name;
      struct stat st {};
      if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) out.push_back(path);
    }
    ::closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::shared_ptr<MappedFile>> MappedFile::Open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO would otherwise wait for a writer forever; fstat below then
  // refuses anything but a regular file.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return NotFound("cannot open file [" + path + "]: " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return InvalidArgument("[" + path + "] is not a regular file");
  }
  std::shared_ptr<MappedFile> m(new MappedFile());
  m->size_ = static_cast<size_t>(st.st_size);
  if (m->size_ > 0) {
    void* p = mmap(nullptr, m->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      ::close(fd);
      return IoError("cannot map [" + path + "]: " + std::strerror(errno));
    }
    m->data_ = static_cast<const uint8_t*>(p);
    m->mapped_ = true;
  }
  ::close(fd);
  return m;
}

std::shared_ptr<MappedFile> MappedFile::FromCopy(const void* data, size_t size) {
  std::shared_ptr<MappedFile> m(new MappedFile());
  // 64-byte alignment so weights keep the alignment they have in the file; aligned_alloc
  // wants a multiple of the alignment, and a size near SIZE_MAX is refused.
  if (size > SIZE_MAX - 128) throw std::bad_alloc();
  m->owned_.reset(static_cast<uint8_t*>(std::aligned_alloc(64, (size + 1 + 63) / 64 * 64)));
  if (!m->owned_) throw std::bad_alloc();  // as new[] did: the C API's Guard reports it
  if (size) std::memcpy(m->owned_.get(), data, size);
  m->data_ = m->owned_.get();
  m->size_ = size;
  return m;
}

size_t MappedFile::ReleasePages(const void* p, size_t n) const {
  if (!mapped_ || !p || n == 0) return 0;
  const auto begin = reinterpret_cast<uintptr_t>(p), end = begin + n;
  const auto lo = reinterpret_cast<uintptr_t>(data_), hi = lo + size_;
  if (begin < lo || end > hi) return 0;
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t a = (begin + page - 1) / page * page, b = end / page * page;
  if (a >= b) return 0;
  if (madvise(reinterpret_cast<void*>(a), b - a, MADV_DONTNEED) != 0) return 0;
  return b - a;
}

MappedFile::~MappedFile() {
  if (mapped_) munmap(const_cast<uint8_t*>(data_), size_);
}

}  // namespace oc
