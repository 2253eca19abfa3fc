// The JSON profile reader's fast path (plain JSON with a "phases" array) and its full path read
// the same profiles; everything the fast path cannot read goes to the full one.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "harness.hpp"
#include "input/raw_profile.hpp"

using amdahl::detail::read_json_profile_events;
using amdahl::detail::read_plain_json_profile;

TEST_CASE("json paths: the fast path reads plain profiles as the full path does", "[json]") {
    const std::string text = R"({"name": "step", "unit": "us", "total": "1 ms", "_note": [1, {"x": null}],
        "phases": [{"name": "gemm", "time": 340, "kind": "kernel", "_extra": {"a": [true]}},
                   {"name": "copy", "time": "0.2 ms", "share": 0.2},
                   {"name": "attention", "time": 2.1e2, "active_time": 300}],
        "proposals": [{"target": "gemm", "factor": 4, "effort": 2}]})";
    const auto plain = read_plain_json_profile(text, "step.json");
    REQUIRE(plain);
    const auto full = read_json_profile_events(text, "step.json");
    REQUIRE(plain->phases.size() == 3);
    REQUIRE(full.phases.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(plain->phases[i].name == full.phases[i].name);
        CHECK(plain->phases[i].kind == full.phases[i].kind);
        CHECK(plain->phases[i].time == full.phases[i].time);
        CHECK(plain->phases[i].active_time == full.phases[i].active_time);
        CHECK(plain->phases[i].at == full.phases[i].at);
        CHECK(plain->extra[i].time_unit == full.extra[i].time_unit);
        CHECK(plain->extra[i].share == full.extra[i].share);
    }
    CHECK(plain->extra[1].time_unit == amdahl::Unit::ms);
    CHECK(plain->unit == amdahl::Unit::us);
    CHECK(plain->total->value == 1);
    CHECK(plain->proposals.size() == 1);
    CHECK(plain->proposals[0].effort == 2);
    const amdahl::Profile profile = amdahl::parse_profile(text, "step.json", amdahl::InputFormat::json);
    CHECK(profile.where(profile.phases[2]) == "step.json: phases[2]");
}

TEST_CASE("json paths: the fast path reads escapes and UTF-8 in names as the full path does", "[json]") {
    // What amdahl import writes for names outside printable ASCII (JsonWriter escapes control
    // bytes and DEL, and keeps UTF-8), and what other tools write.
    const std::string text =
        "{\"phases\": [{\"name\": \"Host\xe2\x86\x92"
        "device\", \"time\": 1},"
        R"( {"name": "a\u00e9\u0000\u007f\t\"q\"\\\/\b\f\n\r", "time": 2},)"
        R"( {"name": "\u20AC\u00E9", "kind": "k\u0041nd", "time": 3}]})";
    const auto plain = read_plain_json_profile(text, "p.json");
    REQUIRE(plain);
    const auto full = read_json_profile_events(text, "p.json");
    REQUIRE(plain->phases.size() == 3);
    REQUIRE(full.phases.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(plain->phases[i].name == full.phases[i].name);
        CHECK(plain->phases[i].kind == full.phases[i].kind);
    }
    CHECK(plain->phases[0].name ==
          "Host\xe2\x86\x92"
          "device");
    CHECK(plain->phases[1].name == std::string("a\xc3\xa9\0\x7f\t\"q\"\\/\b\f\n\r", 15));
    CHECK(plain->phases[2].name == "\xe2\x82\xac\xc3\xa9");
    CHECK(plain->phases[2].kind == "kAnd");
}

TEST_CASE("json paths: the fast path reads an imported trace's overlaps and notes as the full path does", "[json]") {
    const std::string text = R"({"unit": "us", "phases": [{"name": "gemm", "time": 5}, {"name": "copy", "time": 3}],
        "overlaps": [{"phases": ["gemm", "copy"], "time": 2.5}, {"time": 0, "phases": []},
                     {"phases": ["g\u00e9mm"], "time": -0}],
        "notes": ["read 2 tracks", "a \"quoted\" note"]})";
    const auto plain = read_plain_json_profile(text, "t.json");
    REQUIRE(plain);
    const auto full = read_json_profile_events(text, "t.json");
    REQUIRE(plain->overlaps.size() == 3);
    REQUIRE(full.overlaps.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(plain->overlaps[i].phases == full.overlaps[i].phases);
        CHECK(plain->overlaps[i].time == full.overlaps[i].time);
        CHECK_FALSE(std::signbit(plain->overlaps[i].time));
    }
    CHECK(plain->overlaps[0].phases == std::vector<std::string>{"gemm", "copy"});
    CHECK(plain->overlaps[0].time == 2.5);
    CHECK(plain->overlaps[2].phases == std::vector<std::string>{"g\xc3\xa9mm"});
    // Anything else in them is the full reader's: to read, or to report.
    for (const char* tail : {
             R"("overlaps": [{"phases": ["a"], "time": "3 ms"}])",        // a time as text
             R"("overlaps": [{"phases": ["a"], "time": 3, "x": 1}])",     // another key
             R"("overlaps": [{"phases": ["a"], "time": 3, "time": 4}])",  // a key twice
             R"("overlaps": [{"phases": ["a"]}])",                        // no time
             R"("overlaps": [{"phases": ["a"], "time": -3}])",
             R"("overlaps": [{"phases": [1], "time": 3}])",
             R"("overlaps": [], "overlaps": [])",
             R"("overlaps": {})",
             R"("notes": "one")",
             R"("notes": ["a", 1])",
             R"("notes": [], "notes": [])",
         }) {
        const std::string document = R"({"phases": [{"name": "a", "time": 1}], )" + std::string(tail) + "}";
        INFO(document);
        CHECK_FALSE(read_plain_json_profile(document, "t.json"));
        amdahl::fuzz::check_input("fuzz_json", document);  // and both paths say the same
    }
    // A key an overlap does not have is refused, as everywhere in a profile.
    try {
        (void)amdahl::parse_profile(
            R"({"phases": [{"name": "a", "time": 5}], "overlaps": [{"phases": ["a"], "time": 3, "tme": 1}]})", "t.json",
            amdahl::InputFormat::json);
        FAIL("an overlap's unknown key was ignored");
    } catch (const amdahl::Error& e) {
        CHECK_THAT(e.what(), Catch::StartsWith("t.json: overlaps[0].tme: unknown key 'tme'"));
    }
    // An overlap's time with a unit would be read as a number of the profile's units: refused.
    try {
        (void)amdahl::parse_profile(R"({"unit": "us", "phases": [{"name": "a", "time": 5000}],
            "overlaps": [{"phases": ["a"], "time": "3 ms"}]})",
                                    "t.json", amdahl::InputFormat::json);
        FAIL("an overlap's time with a unit was read");
    } catch (const amdahl::Error& e) {
        CHECK(std::string(e.what()) ==
              "t.json: overlaps[0].time: an overlap's time is a number in the profile's unit (got \"3 ms\")");
    }
}

TEST_CASE("json paths: the fast path leaves odd strings, shorthand, other shapes and every error to the full path",
          "[json]") {
    for (const char* text : {
             R"({"phases": [{"name": "a\ud83d\ude00", "time": 1}]})",       // a surrogate pair
             R"({"phases": [{"name": "a\ud83d", "time": 1}]})",             // a lone surrogate
             R"({"phases": [{"name": "a\x41", "time": 1}]})",               // no such escape
             R"({"phases": [{"name": "a\u00g1", "time": 1}]})",             // not hex
             R"({"phases": [{"name": "a\u00", "time": 1}]})",               // cut short
             "{\"phases\": [{\"name\": \"a\xc3\", \"time\": 1}]}",          // ill-formed UTF-8
             "{\"phases\": [{\"name\": \"a\xed\xa0\x80\", \"time\": 1}]}",  // a surrogate in UTF-8
             "{\"phases\": [{\"name\": \"a\x01\", \"time\": 1}]}",          // a raw control byte
             "{\"phases\": [{\"name\": \"a\x7f\", \"time\": 1}]}",          // a raw DEL
             R"({"phases": [{"n\u0061me": "a", "time": 1}]})",              // an escape in a key
             R"({"phases": {"a": 1, "b": "2 ms"}})",                        // shorthand
             R"({"phases": [{"name": "a", "time": {"v": 1}}]})",            // a time no phase has
             R"({"phases": [{"name": "a", "time": -1}]})",
             R"({"phases": [{"name": "a", "time": "fast"}]})",
             R"({"phases": [{"name": "a", "share": "20%"}], "total": 10})",
             R"({"phases": [{"name": "a", "time": 1e999}]})",
             R"({"phases": [{"name": "a", "time": 1}], "phases": []})",
             R"({"phases": [{"name": "a", "time": 1}]} x)",
             R"({"phases": [{"name": "a", "time": 1, "x": tru}]})",
             R"({"phases": [{"time": 1}]})",
             R"([{"name": "a", "time": 01}])",
         }) {
        INFO(text);
        CHECK_FALSE(read_plain_json_profile(text, "p.json"));
    }
}

TEST_CASE("json paths: random plain and not-so-plain profiles read the same both ways", "[json][property]") {
    // The fuzz harness's check (fuzz/harness.cpp, check_json_paths) on generated documents.
    std::mt19937_64 rng(20261130);
    const std::vector<std::string> values = {"1",     "0",    "2.5", "1e-3", "\"3 ms\"", "\"4us\"", "-1",
                                             "\"x\"", "null", "{}",  "[1]",  "true",     "1e999",   "\"1,234\""};
    const std::vector<std::string> keys = {"name", "time", "kind", "share", "active_time", "other"};
    constexpr int documents = 3000;
    for (int d = 0; d < documents; ++d) {
        std::string text = rng() % 4 == 0 ? "[" : R"({"unit": "ms", "phases": [)";
        const auto phases = rng() % 5;
        for (std::size_t p = 0; p < phases; ++p) {
            text += p ? ", {" : "{";
            const auto fields = rng() % 4;
            for (std::size_t f = 0; f < fields; ++f) {
                const std::string& key = keys[rng() % keys.size()];
                std::string value = values[rng() % values.size()];
                if (key == "name" || key == "kind") {
                    static const char* const tails[] = {"", "\\u00e9", "\xc3\xa9", "\\n", "\\ud800", "\xc3"};
                    value = "\"p" + std::to_string(rng() % 3) + tails[rng() % std::size(tails)] + "\"";
                }
                if (key == "share") value = rng() % 2 ? "0.25" : "1.5";
                text += (f ? ", \"" : "\"") + key + "\": " + value;
            }
            text += "}";
        }
        if (text.front() == '[') {
            text += "]";
        } else {
            // An imported trace's fields, plain or not.
            static const char* const fields[] = {"",
                                                 R"(, "overlaps": [{"phases": ["p0", "p1"], "time": 1}])",
                                                 R"(, "overlaps": [{"phases": ["p0"], "time": "1 ms"}])",
                                                 R"(, "overlaps": [{"phases": ["p9"], "time": 2}])",
                                                 R"(, "notes": ["n"])",
                                                 R"(, "notes": [1])"};
            text += std::string("]") + fields[rng() % std::size(fields)] + fields[rng() % std::size(fields)] + "}";
        }
        INFO(text);
        amdahl::fuzz::check_input("fuzz_json", text);  // throws on a difference
    }
}
