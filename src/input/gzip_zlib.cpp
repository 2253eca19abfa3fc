// The gzip reader of input/gzip.hpp built on zlib instead of isa-l's igzip, for the static release
// binary (-DAMDAHL_GZIP=zlib, scripts/release): Debian ships isa-l as a shared library only, and
// zlib as a static one (libz.a). About 4x slower to inflate (bench/gzip.sh); the same streaming,
// every member in turn, and the same messages where the two libraries name the same fault.
#include <zlib.h>

#include <algorithm>
#include <limits>

#include "amdahl/error.hpp"
#include "input/gzip.hpp"

namespace amdahl::detail {

namespace {
constexpr int gzip_only = 16 + MAX_WBITS;  // inflateInit2's window bits: a gzip wrapper, not zlib's
}  // namespace

struct GzipInflater::State {
    z_stream zlib{};
    bool member_done = false;
};

GzipInflater::GzipInflater(std::istream& compressed, std::string source, std::string_view already_read)
    : state_(std::make_unique<State>()), compressed_(compressed), source_(std::move(source)) {
    if (inflateInit2(&state_->zlib, gzip_only) != Z_OK) throw Error(source_, "out of memory for inflating gzip data");
    input_.assign(already_read.begin(), already_read.end());
    state_->zlib.next_in = input_.data();
    state_->zlib.avail_in = static_cast<uInt>(input_.size());
    compressed_read_ = input_.size();
}

GzipInflater::~GzipInflater() { inflateEnd(&state_->zlib); }

bool GzipInflater::fill() {
    const bool more = read_input();
    state_->zlib.next_in = input_.data();
    state_->zlib.avail_in = static_cast<uInt>(input_.size());
    return more;
}

std::size_t GzipInflater::inflate_into(char* out, std::size_t size) {
    z_stream& zlib = state_->zlib;
    if (finished_ || size == 0) return 0;
    zlib.next_out = reinterpret_cast<Bytef*>(out);
    zlib.avail_out = static_cast<uInt>(std::min<std::size_t>(size, std::numeric_limits<uInt>::max()));
    const uInt asked = zlib.avail_out;
    while (zlib.avail_out > 0) {
        if (state_->member_done) {
            std::uint8_t* next = zlib.next_in;
            std::size_t avail = zlib.avail_in;
            if (!start_next_member(next, avail)) {
                finished_ = true;
                break;
            }
            zlib.next_in = next;
            zlib.avail_in = static_cast<uInt>(avail);
            inflateReset(&zlib);
            state_->member_done = false;
        }
        if (zlib.avail_in == 0 && !fill()) truncated();
        const int status = inflate(&zlib, Z_NO_FLUSH);
        if (status == Z_STREAM_END) {
            state_->member_done = true;
        } else if (status == Z_NEED_DICT) {
            fail("corrupt gzip data in member " + std::to_string(member_) + ": it needs a preset dictionary");
        } else if (status != Z_OK && !(status == Z_BUF_ERROR && zlib.avail_in == 0)) {
            fail("corrupt gzip data in member " + std::to_string(member_) + ": " +
                 (zlib.msg ? zlib.msg : "inflate error " + std::to_string(status)));
        }
    }
    return asked - zlib.avail_out;
}

// zlib checks a member's reserved header flags itself ("unknown header flags set").
void GzipInflater::check_header_flags() {}

}  // namespace amdahl::detail
