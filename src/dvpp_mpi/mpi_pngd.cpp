// hi_mpi_pngd_*: PNGD channels on libpng (dvpp/png.h). A send decodes at once into the
// picture it gives; get_image_data hands the pictures back in order.
#include <array>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>

#include "dvpp/png.h"
#include "dvpp_mpi/mpi_core.h"

namespace oc::dvpp_mpi {
namespace {

// Decoded pictures a channel holds before sends get BUF_FULL (the hardware's queue depth is
// not public).
constexpr size_t kMaxReady = 1024;

struct PngdChannel {
  std::mutex m;
  std::condition_variable cv;
  bool destroyed = false;
  struct Done {
    hi_pic_info picture;
    hi_img_stream stream;
  };
  std::deque<Done> ready;
};

std::mutex g_table_mutex;
std::array<std::shared_ptr<PngdChannel>, PNGD_MAX_CHN_NUM>& Table() {
  static auto* table = new std::array<std::shared_ptr<PngdChannel>, PNGD_MAX_CHN_NUM>();
  return *table;
}

hi_s32 CheckId(const char* fn, hi_pngd_chn chn) {
  if (hi_s32 e = RequireSystem(Module::kPngd, fn)) return e;
  if (chn < 0 || chn >= PNGD_MAX_CHN_NUM)
    return Fail(Module::kPngd, HI_ERR_INVALID_CHN_ID,
                std::string(fn) + ": channel " + std::to_string(chn) + " is not 0 to " +
                    std::to_string(PNGD_MAX_CHN_NUM - 1));
  return HI_SUCCESS;
}

std::shared_ptr<PngdChannel> Channel(const char* fn, hi_pngd_chn chn, hi_s32* error) {
  *error = CheckId(fn, chn);
  if (*error) return nullptr;
  std::lock_guard<std::mutex> lock(g_table_mutex);
  auto c = Table()[static_cast<size_t>(chn)];
  if (!c)
    *error = Fail(Module::kPngd, HI_ERR_UNEXIST,
                  std::string(fn) + ": channel " + std::to_string(chn) + " is not created");
  return c;
}

}  // namespace
}  // namespace oc::dvpp_mpi

using namespace oc::dvpp_mpi;  // NOLINT: the C entry points below are thin

extern "C" {

hi_s32 hi_mpi_pngd_create_chn(hi_pngd_chn chn, const hi_pngd_chn_attr* attr) {
  const char* fn = "hi_mpi_pngd_create_chn";
  if (hi_s32 e = CheckId(fn, chn)) return e;
  if (!attr) return Fail(Module::kPngd, HI_ERR_NULL_PTR, std::string(fn) + ": attr is null");
  std::lock_guard<std::mutex> lock(g_table_mutex);
  if (Table()[static_cast<size_t>(chn)])
    return Fail(Module::kPngd, HI_ERR_EXIST,
                std::string(fn) + ": channel " + std::to_string(chn) + " exists already");
  Table()[static_cast<size_t>(chn)] = std::make_shared<PngdChannel>();
  return HI_SUCCESS;
}

hi_s32 hi_mpi_pngd_destroy_chn(hi_pngd_chn chn) {
  hi_s32 e = 0;
  auto c = Channel("hi_mpi_pngd_destroy_chn", chn, &e);
  if (!c) return e;
  {
    std::lock_guard<std::mutex> lock(g_table_mutex);
    Table()[static_cast<size_t>(chn)].reset();
  }
  std::lock_guard<std::mutex> lock(c->m);
  c->destroyed = true;
  c->cv.notify_all();
  return HI_SUCCESS;
}

hi_s32 hi_mpi_pngd_send_stream(hi_pngd_chn chn, const hi_img_stream* stream,
                               hi_pic_info* png_pic_info, hi_s32 milli_sec) {
  const char* fn = "hi_mpi_pngd_send_stream";
  (void)milli_sec;
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  if (!stream || !png_pic_info)
    return Fail(Module::kPngd, HI_ERR_NULL_PTR,
                std::string(fn) + ": stream or png_pic_info is null");
  int32_t type = 0;
  std::memcpy(&type, &stream->type, sizeof type);
  if (type != HI_PT_PNG)
    return Fail(Module::kPngd, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": the stream's type " + std::to_string(type) +
                    " is not HI_PT_PNG (268)");
  if (hi_s32 bad = CheckBuffer(Module::kPngd, stream->addr, stream->len, fn, "the PNG stream"))
    return bad;
  if (hi_s32 bad = CheckBuffer(Module::kPngd, png_pic_info->picture_address,
                               png_pic_info->picture_buffer_size, fn, "the output picture"))
    return bad;
  {
    std::lock_guard<std::mutex> lock(c->m);
    if (c->ready.size() >= kMaxReady)
      return Fail(Module::kPngd, HI_ERR_BUF_FULL,
                  std::string(fn) + ": " + std::to_string(kMaxReady) +
                      " decoded pictures wait for hi_mpi_pngd_get_image_data");
  }
  hi_vpc_pic_info as_vpc{};
  std::memcpy(&as_vpc, png_pic_info, sizeof as_vpc);
  static_assert(sizeof(hi_vpc_pic_info) == sizeof(hi_pic_info));
  oc::dvpp::Picture pic = ToPicture(as_vpc);
  if (oc::Status s = oc::dvpp::DecodePng(stream->addr, stream->len, &pic); !s.ok())
    return FailStatus(Module::kPngd, s, fn);
  png_pic_info->picture_width = pic.width;
  png_pic_info->picture_height = pic.height;
  std::memcpy(&png_pic_info->picture_format, &pic.format, sizeof pic.format);
  std::lock_guard<std::mutex> lock(c->m);
  c->ready.push_back({*png_pic_info, *stream});
  c->cv.notify_all();
  return HI_SUCCESS;
}

hi_s32 hi_mpi_pngd_get_image_data(hi_pngd_chn chn, hi_pic_info* png_pic_info, hi_img_stream* stream,
                                  hi_s32 milli_sec) {
  const char* fn = "hi_mpi_pngd_get_image_data";
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  if (!png_pic_info)
    return Fail(Module::kPngd, HI_ERR_NULL_PTR, std::string(fn) + ": png_pic_info is null");
  std::unique_lock<std::mutex> lock(c->m);
  if (!WaitFor(lock, c->cv, milli_sec, [&] { return !c->ready.empty() || c->destroyed; }) ||
      c->ready.empty()) {
    if (c->destroyed)
      return Fail(Module::kPngd, HI_ERR_UNEXIST, std::string(fn) + ": the channel was destroyed");
    return Code(Module::kPngd, HI_ERR_BUF_EMPTY);
  }
  *png_pic_info = c->ready.front().picture;
  if (stream) *stream = c->ready.front().stream;
  c->ready.pop_front();
  return HI_SUCCESS;
}

}  // extern "C"
