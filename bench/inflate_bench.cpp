// Inflater candidates for gzip input, each the way amdahl would use it: zlib and isa-l's igzip
// streaming (1 MiB of compressed input in, 1 MiB of output out, memory independent of the file's
// size) and libdeflate, which has no streaming API, on the whole file in memory with its whole
// uncompressed size allocated. Prints the uncompressed bytes, the seconds and the MB/s of
// uncompressed output; bench/gzip.sh times each under hyperfine and /usr/bin/time.
//   inflate_bench zlib|isal|libdeflate FILE.gz
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <zlib.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

constexpr std::size_t chunk = 1 << 20;

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "inflate_bench: %s\n", what.c_str());
    std::exit(2);
}

// Touches the output as a reader would (a cheap checksum), so no inflater can skip work.
std::uint64_t touch(const unsigned char* data, std::size_t size) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < size; i += 4096) sum += data[i];
    return sum;
}

std::uint64_t inflate_zlib(std::ifstream& in, std::uint64_t& out_bytes) {
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) fail("inflateInit2");
    std::vector<unsigned char> input(chunk), output(chunk);
    std::uint64_t sum = 0;
    bool ended = false;
    for (;;) {
        if (z.avail_in == 0) {
            in.read(reinterpret_cast<char*>(input.data()), static_cast<std::streamsize>(chunk));
            z.next_in = input.data();
            z.avail_in = static_cast<uInt>(in.gcount());
            if (z.avail_in == 0) break;
        }
        if (ended) {  // another member
            inflateReset(&z);
            ended = false;
        }
        z.next_out = output.data();
        z.avail_out = static_cast<uInt>(chunk);
        const int status = inflate(&z, Z_NO_FLUSH);
        if (status != Z_OK && status != Z_STREAM_END) fail("zlib: corrupt data");
        const std::size_t got = chunk - z.avail_out;
        sum += touch(output.data(), got);
        out_bytes += got;
        ended = status == Z_STREAM_END;
    }
    if (!ended) fail("zlib: truncated");
    inflateEnd(&z);
    return sum;
}

std::uint64_t inflate_isal(std::ifstream& in, std::uint64_t& out_bytes) {
    inflate_state state;
    isal_inflate_init(&state);
    state.crc_flag = ISAL_GZIP;
    std::vector<unsigned char> input(chunk), output(chunk);
    std::uint64_t sum = 0;
    for (;;) {
        if (state.avail_in == 0) {
            in.read(reinterpret_cast<char*>(input.data()), static_cast<std::streamsize>(chunk));
            state.next_in = input.data();
            state.avail_in = static_cast<std::uint32_t>(in.gcount());
            if (state.avail_in == 0) break;
        }
        if (state.block_state == ISAL_BLOCK_FINISH) {  // another member
            unsigned char* next = state.next_in;
            const std::uint32_t avail = state.avail_in;
            isal_inflate_reset(&state);
            state.crc_flag = ISAL_GZIP;
            state.next_in = next;
            state.avail_in = avail;
        }
        state.next_out = output.data();
        state.avail_out = static_cast<std::uint32_t>(chunk);
        if (isal_inflate(&state) != ISAL_DECOMP_OK) fail("isal: corrupt data");
        const std::size_t got = chunk - state.avail_out;
        sum += touch(output.data(), got);
        out_bytes += got;
    }
    if (state.block_state != ISAL_BLOCK_FINISH) fail("isal: truncated");
    return sum;
}

std::uint64_t inflate_libdeflate(std::ifstream& in, std::uint64_t& out_bytes) {
    const std::vector<unsigned char> input((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (input.size() < 18) fail("libdeflate: too short");
    // The trailer's ISIZE is the size mod 2^32: a lower bound to start from, doubled on overflow.
    std::uint32_t isize = 0;
    std::memcpy(&isize, input.data() + input.size() - 4, 4);
    std::size_t capacity = std::max<std::size_t>(isize, chunk);
    libdeflate_decompressor* d = libdeflate_alloc_decompressor();
    std::vector<unsigned char> output(capacity);
    std::size_t in_at = 0, total = 0;
    while (in_at < input.size()) {  // one call per member
        std::size_t consumed = 0, written = 0;
        const auto status =
            libdeflate_gzip_decompress_ex(d, input.data() + in_at, input.size() - in_at, output.data() + total,
                                          output.size() - total, &consumed, &written);
        if (status == LIBDEFLATE_INSUFFICIENT_SPACE) {
            output.resize(output.size() * 2);
            continue;
        }
        if (status != LIBDEFLATE_SUCCESS) fail("libdeflate: corrupt data");
        in_at += consumed;
        total += written;
    }
    libdeflate_free_decompressor(d);
    out_bytes = total;
    return touch(output.data(), total);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) fail("usage: inflate_bench zlib|isal|libdeflate FILE.gz");
    const std::string which = argv[1];
    std::ifstream in(argv[2], std::ios::binary);
    if (!in) fail(std::string("cannot open ") + argv[2]);
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t bytes = 0, sum = 0;
    if (which == "zlib")
        sum = inflate_zlib(in, bytes);
    else if (which == "isal")
        sum = inflate_isal(in, bytes);
    else if (which == "libdeflate")
        sum = inflate_libdeflate(in, bytes);
    else
        fail("unknown inflater '" + which + "'");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s: %llu bytes in %.3f s, %.0f MB/s (checksum %llu)\n", which.c_str(),
                static_cast<unsigned long long>(bytes), seconds, static_cast<double>(bytes) / 1e6 / seconds,
                static_cast<unsigned long long>(sum));
}
