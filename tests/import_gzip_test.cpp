// gzip input: known by its magic bytes whatever its name, from a path or standard input, inflated
// as it is read, every member of a multi-member file; damaged data is an error naming the file.
// tests/data/gzip/ holds the real Kineto sample and a CSV compressed with `gzip -n -9`, and the
// sample cut in two at byte 5000 with each half compressed alone (two members).
#include <zlib.h>
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "input/read_chunk.hpp"
#include "support.hpp"

using namespace amdahl;
using amdahl::test::read_file;
using amdahl::test::run_binary;
using amdahl::test::run_cli;
using amdahl::test::source_path;
using amdahl::test::write_temp;

namespace {

const std::string plain_trace = source_path("tests/data/profilers/pytorch-chrome-trace/hta_base.json");
const std::string gz_trace = source_path("tests/data/gzip/hta_base.json.gz");

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// `amdahl import PATH`: the whole profile as JSON (phases, overlaps, boundary, notes), with the
// file's name written as FILE so two inputs can be compared.
test::RunResult imported(const std::string& path, const std::string& input = "") {
    auto r = run_cli({"import", path}, input);
    r.out = replace_all(r.out, path == "-" ? "<stdin>" : path, "FILE");
    r.err = replace_all(r.err, path == "-" ? "<stdin>" : path, "FILE");
    return r;
}

// `text` as one gzip member, its deflate blocks stored (level 0), so its size follows the text's.
std::string gzip_stored(const std::string& text) {
    z_stream z{};
    REQUIRE(deflateInit2(&z, 0, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

// CSV rows `<prefix><i>,1` of exactly `length` bytes (the last name padded with x), from row `first`.
std::string csv_rows(const std::string& prefix, std::size_t length, int& first) {
    std::string rows;
    while (length - rows.size() >= 32) rows += prefix + std::to_string(first++) + ",1\n";
    const std::string last = prefix + std::to_string(first++);
    return rows + last + std::string(length - rows.size() - last.size() - 3, 'x') + ",1\n";
}

void check_eval_error(const std::string& path, const std::string& message) {
    const auto r = run_cli({"eval", path}, "");
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + message + "\n");
}

}  // namespace

TEST_CASE("gzip: a .json.gz trace gives exactly the profile of the plain trace", "[import][gzip]") {
    const auto plain = imported(plain_trace);
    REQUIRE(plain.exit_code == 0);
    REQUIRE(plain.out.find("\"phases\"") != std::string::npos);
    SECTION("from a path") {
        const auto gz = imported(gz_trace);
        CHECK(gz.exit_code == 0);
        CHECK(gz.out == plain.out);
        CHECK(gz.err == plain.err);
    }
    SECTION("from standard input") {
        const auto gz = imported("-", read_file(gz_trace));
        const auto plain_stdin = imported("-", read_file(plain_trace));
        CHECK(gz.exit_code == 0);
        CHECK(gz.out == plain_stdin.out);
        CHECK(gz.err == plain_stdin.err);
    }
    SECTION("from the binary's real standard input") {
        const auto gz = run_binary("eval - --format csv", read_file(gz_trace));
        const auto expected = run_binary("eval " + plain_trace + " --format csv");
        CHECK(gz.exit_code == 0);
        CHECK(gz.out == expected.out);
    }
    SECTION("by its magic bytes, whatever its name") {
        const std::string path = write_temp("gzip_unnamed.json", read_file(gz_trace));
        const auto gz = imported(path);
        CHECK(gz.exit_code == 0);
        CHECK(gz.out == plain.out);
    }
    SECTION("every member of a multi-member file, one after another") {
        const auto gz = imported(source_path("tests/data/gzip/hta_base_two_members.json.gz"));
        CHECK(gz.exit_code == 0);
        CHECK(gz.out == plain.out);
    }
}

TEST_CASE("gzip: a .csv.gz is a CSV, named by the extension under .gz", "[import][gzip]") {
    const std::string gz = source_path("tests/data/gzip/transformer_step.csv.gz");
    const std::string plain = source_path("examples/transformer_step.csv");
    std::istringstream no_stdin;
    const Profile from_gz = load_profile(gz, no_stdin);
    const Profile from_plain = load_profile(plain, no_stdin);
    CHECK(from_gz.format == "csv");
    REQUIRE(from_gz.phases.size() == from_plain.phases.size());
    for (std::size_t i = 0; i < from_gz.phases.size(); ++i) {
        CHECK(from_gz.phases[i].name == from_plain.phases[i].name);
        CHECK(from_gz.phases[i].kind == from_plain.phases[i].kind);
        CHECK(from_gz.phases[i].time == from_plain.phases[i].time);
    }
    CHECK(from_gz.where(from_gz.phases[1]) == gz + ":3");
}

TEST_CASE("gzip: damaged or mislabelled input is an error naming the file (exit 2)", "[import][gzip][errors]") {
    const std::string bytes = read_file(gz_trace);
    REQUIRE(bytes.size() == 1584);
    SECTION("a .gz name on plain text") {
        const std::string path = write_temp("gzip_plain.json.gz", read_file(plain_trace));
        check_eval_error(path,
                         path + ": is named .gz but is not gzip data (it does not start with gzip's bytes 1f 8b)");
    }
    SECTION("an empty .gz file") {
        const std::string path = write_temp("gzip_empty.json.gz", "");
        check_eval_error(path,
                         path + ": is named .gz but is not gzip data (it does not start with gzip's bytes 1f 8b)");
    }
    SECTION("cut inside the compressed data") {
        const std::string path = write_temp("gzip_cut.json.gz", bytes.substr(0, 800));
        check_eval_error(path, path + ": truncated gzip data: the input ends inside gzip member 1 (after 800 bytes)");
    }
    SECTION("cut inside the trailer") {
        const std::string path = write_temp("gzip_cut_trailer.json.gz", bytes.substr(0, bytes.size() - 3));
        check_eval_error(path, path + ": truncated gzip data: the input ends inside gzip member 1 (after 1581 bytes)");
    }
    SECTION("cut after the magic bytes") {
        const std::string path = write_temp("gzip_magic_only.json.gz", bytes.substr(0, 2));
        check_eval_error(path, path + ": truncated gzip data: the input ends inside gzip member 1 (after 2 bytes)");
    }
    SECTION("a wrong CRC-32 in the trailer") {
        std::string damaged = bytes;
        damaged[damaged.size() - 8] = static_cast<char>(damaged[damaged.size() - 8] ^ 0x55);
        const std::string path = write_temp("gzip_crc.json.gz", damaged);
        check_eval_error(
            path, path + ": corrupt gzip data in member 1: its CRC-32 or length does not match the inflated data");
    }
    SECTION("a wrong length in the trailer") {
        std::string damaged = bytes;
        damaged[damaged.size() - 1] = '\x01';
        const std::string path = write_temp("gzip_isize.json.gz", damaged);
        check_eval_error(
            path, path + ": corrupt gzip data in member 1: its CRC-32 or length does not match the inflated data");
    }
    SECTION("damaged compressed data") {
        std::string damaged = bytes;
        for (std::size_t i = 40; i < 60; ++i) damaged[i] = '\xff';
        const std::string path = write_temp("gzip_damaged.json.gz", damaged);
        check_eval_error(path, path + ": corrupt gzip data in member 1: an invalid deflate block");
    }
    SECTION("a compression method other than deflate") {
        std::string damaged = bytes;
        damaged[2] = '\x07';
        const std::string path = write_temp("gzip_method.json.gz", damaged);
        check_eval_error(path, path + ": corrupt gzip data in member 1: a compression method other than deflate");
    }
    SECTION("reserved header flags set (RFC 1952: a reader must refuse them)") {
        std::string damaged = bytes;
        damaged[3] = '\x20';
        const std::string path = write_temp("gzip_flags.json.gz", damaged);
        check_eval_error(path, path + ": corrupt gzip data in member 1: an invalid gzip header (reserved flags set)");
    }
    SECTION("reserved header flags in a second member") {
        std::string two = read_file(source_path("tests/data/gzip/hta_base_two_members.json.gz"));
        REQUIRE(two.size() == 1990);
        const std::size_t second = two.find("\x1f\x8b\x08", 1);
        REQUIRE(second != std::string::npos);
        two[second + 3] = '\x40';
        const std::string path = write_temp("gzip_flags_2.json.gz", two);
        check_eval_error(path, path + ": corrupt gzip data in member 2: an invalid gzip header (reserved flags set)");
    }
    SECTION("data after the last member") {
        const std::string path = write_temp("gzip_trailing.json.gz", bytes + "garbage\n");
        check_eval_error(path,
                         path + ": data after the end of the gzip data (at byte 1584) is not another gzip member");
    }
    SECTION("zeros after the last member (padding) are data too") {
        const std::string path = write_temp("gzip_zeros.json.gz", bytes + std::string(512, '\0'));
        check_eval_error(path,
                         path + ": data after the end of the gzip data (at byte 1584) is not another gzip member");
    }
    SECTION("a damaged second member, from standard input") {
        std::string two = read_file(source_path("tests/data/gzip/hta_base_two_members.json.gz"));
        two.resize(two.size() - 100);
        const auto r = run_cli({"eval", "-"}, two);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == "error: <stdin>: truncated gzip data: the input ends inside gzip member 2 (after 1890 bytes)\n");
    }
    SECTION("binary data inside the gzip") {
        const std::string plain = write_temp("gzip_binary.csv", std::string("name,time\nload,3\0\n", 18));
        const auto gz = test::run_shell("gzip -n -c '" + plain + "'");
        REQUIRE(gz.exit_code == 0);
        const std::string path = write_temp("gzip_binary.csv.gz", gz.out);
        check_eval_error(
            path, path + ": binary data (a NUL byte at offset 16); expected a profile or profiler output as text");
    }
}

TEST_CASE("gzip: the reader asks for as much again as it has read, from 64 KiB to 1 MiB", "[import][gzip]") {
    CHECK(detail::next_chunk_size(0) == 65536);
    CHECK(detail::next_chunk_size(1) == 65536);
    CHECK(detail::next_chunk_size(65537) == 65537);
    CHECK(detail::next_chunk_size(700000) == 700000);
    CHECK(detail::next_chunk_size(1 << 20) == 1 << 20);
    CHECK(detail::next_chunk_size(std::uint64_t{1} << 40) == 1 << 20);
}

// The first member ends at the end of the reader's first chunk of compressed input (the sniffed
// magic byte and 64 KiB), or a few bytes before or after it: the second member's magic bytes are
// the chunk's last two, split across two chunks, or in the next chunk.
TEST_CASE("gzip: a second member that starts at or across a chunk's end is read whole", "[import][gzip]") {
    for (std::size_t first_size = 65532; first_size <= 65540; ++first_size) {
        INFO("first member: " << first_size << " bytes");
        int row = 0;
        std::string first_text;
        std::string first;
        // The text that gives a stored member of exactly first_size bytes.
        for (std::size_t length = first_size - 64; length < first_size && first.size() != first_size; ++length) {
            row = 0;
            first_text = "name,time (ms)\n" + csv_rows("a", length - 15, row);
            first = gzip_stored(first_text);
        }
        REQUIRE(first.size() == first_size);
        const std::string second_text = csv_rows("b", 4000, row);
        const std::string path = write_temp("gzip_chunk_end.csv.gz", first + gzip_stored(second_text));
        std::istringstream no_stdin;
        const Profile gz = load_profile(path, no_stdin);
        std::istringstream plain_stream(first_text + second_text);
        const Profile plain = load_profile("-", plain_stream);
        REQUIRE(gz.phases.size() == static_cast<std::size_t>(row));
        REQUIRE(plain.phases.size() == gz.phases.size());
        CHECK(gz.phases.back().name == plain.phases.back().name);
        CHECK(gz.phases.back().name.substr(0, 1) == "b");
        CHECK(gz.total() == Approx(row));
    }
}
