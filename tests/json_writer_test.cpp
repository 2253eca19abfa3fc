// The JSON writer (src/report/json_writer.cpp): indentation and one-line containers, string
// escaping (JSON stays valid UTF-8), numbers (shortest round trip, no "-0", non-finite as null),
// writing to a sink as it goes, and lists continued by writers on other threads.
#include <catch2/catch.hpp>

#include <limits>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "amdahl/report.hpp"

using namespace amdahl;

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// One value written alone, without the final newline.
template <class T>
std::string written(const T& value) {
    JsonWriter json;
    json.value(value);
    std::string text = json.str();
    text.pop_back();
    return text;
}

}  // namespace

TEST_CASE("json writer: containers nest with two-space indents and a final newline", "[json-writer]") {
    JsonWriter json;
    json.begin_object();
    json.field("schema_version", 1);
    json.field("command", "eval");
    json.key("phases").begin_array();
    json.begin_object().field("name", "a").field("time", 1.5).end_object();
    json.begin_object().end_object();
    json.end_array();
    json.key("grid").begin_array().end_array();
    json.key("notes").begin_array().value("x").end_array();
    json.end_object();
    CHECK(json.str() ==
          "{\n"
          "  \"schema_version\": 1,\n"
          "  \"command\": \"eval\",\n"
          "  \"phases\": [\n"
          "    {\n"
          "      \"name\": \"a\",\n"
          "      \"time\": 1.5\n"
          "    },\n"
          "    {}\n"
          "  ],\n"
          "  \"grid\": [],\n"
          "  \"notes\": [\n"
          "    \"x\"\n"
          "  ]\n"
          "}\n");
}

TEST_CASE("json writer: a one-line container keeps everything in it on one line", "[json-writer]") {
    JsonWriter json;
    json.begin_object();
    json.key("phases").begin_array();
    json.begin_object(true).field("name", "a").field("time", 2).key("tags").begin_array().value(1).value(2).end_array();
    json.key("empty").begin_object().end_object().end_object();
    json.begin_object(true).field("name", "b").end_object();
    json.end_array();
    json.key("pair").begin_array(true).value(1).value("two").null().end_array();
    json.end_object();
    CHECK(json.str() ==
          "{\n"
          "  \"phases\": [\n"
          "    {\"name\": \"a\", \"time\": 2, \"tags\": [1, 2], \"empty\": {}},\n"
          "    {\"name\": \"b\"}\n"
          "  ],\n"
          "  \"pair\": [1, \"two\", null]\n"
          "}\n");
}

TEST_CASE("json writer: a lone value, and every kind of value", "[json-writer]") {
    CHECK(written(true) == "true");
    CHECK(written(false) == "false");
    CHECK(written(42) == "42");
    CHECK(written(-7) == "-7");
    CHECK(written(9007199254740993LL) == "9007199254740993");
    CHECK(written(std::size_t{18446744073709551615u}) == "18446744073709551615");
    CHECK(written("text") == "\"text\"");
    CHECK(written(std::string_view("view")) == "\"view\"");
    CHECK(written(std::optional<double>()) == "null");
    CHECK(written(std::optional<double>(0.25)) == "0.25");
    CHECK(written(std::optional<std::string_view>("s")) == "\"s\"");
    JsonWriter json;
    json.null();
    CHECK(json.str() == "null\n");
}

TEST_CASE("json writer: numbers are the shortest round trip, whole ones without a point", "[json-writer]") {
    const std::pair<double, const char*> cases[] = {
        {0.0, "0"},
        {-0.0, "0"},  // never "-0"
        {1.0, "1"},
        {-3.0, "-3"},
        {1.5, "1.5"},
        {0.1, "0.1"},
        {1.0 / 3, "0.3333333333333333"},
        {1e-300, "1e-300"},
        {123456789012345.0, "123456789012345"},
        {-123456789012345.0, "-123456789012345"},
        {1e15, "1000000000000000"},
        {1e16, "1e+16"},
        {1.7976931348623157e308, "1.7976931348623157e+308"},
    };
    for (const auto& [value, text] : cases) {
        INFO(text);
        CHECK(written(value) == text);
    }
    // What a JSON parser reads back is the very double written: exact equality is the property.
    for (double value : {0.1, 2.0 / 3, 1e-7, 6.02214076e23, 4.35, 1e21, 0.000123, 99999999999999.9}) {
        const std::string text = written(value);
        INFO(text);
        CHECK(nlohmann::json::parse(text).get<double>() == value);
    }
}

TEST_CASE("json writer: a repeated number is written again, right after other numbers", "[json-writer]") {
    // The writer keeps the last number's text: a phase's new time is often its time.
    JsonWriter json;
    json.begin_array(true);
    for (double value : {2.5, 2.5, 0.0, 2.5, 7.0, 7.0, 2.5, -2.5, 1e300, 1e300, 2.5}) json.value(value);
    json.end_array();
    CHECK(json.str() == "[2.5, 2.5, 0, 2.5, 7, 7, 2.5, -2.5, 1e+300, 1e+300, 2.5]\n");
}

TEST_CASE("json writer: infinities and NaN are null", "[json-writer]") {
    CHECK(written(infinity) == "null");
    CHECK(written(-infinity) == "null");
    CHECK(written(std::numeric_limits<double>::quiet_NaN()) == "null");
    CHECK(written(std::optional<double>(infinity)) == "null");
    JsonWriter json;
    json.begin_object(true).field("speedup", infinity).field("ceiling", 2.0).end_object();
    CHECK(json.str() == "{\"speedup\": null, \"ceiling\": 2}\n");
}

TEST_CASE("json writer: strings are escaped, and stay valid UTF-8", "[json-writer]") {
    const std::pair<std::string, std::string> cases[] = {
        {"plain", "\"plain\""},
        {"", "\"\""},
        {"say \"hi\"", "\"say \\\"hi\\\"\""},
        {"back\\slash", "\"back\\\\slash\""},
        {"a\nb\rc\td", "\"a\\nb\\rc\\td\""},
        {"\x1b[31m", "\"\\u001b[31m\""},
        {"bell\x07", "\"bell\\u0007\""},
        {"\b\f", "\"\\u0008\\u000c\""},
        {std::string("nul\0", 4), "\"nul\\u0000\""},
        {"del\x7f", "\"del\\u007f\""},
        {"/slash", "\"/slash\""},
        // Valid UTF-8 is copied as it is; a byte that starts no valid sequence becomes U+FFFD.
        {"Host\xe2\x86\x92"
         "device",
         "\"Host\xe2\x86\x92"
         "device\""},
        {"\xf0\x9f\x9a\x80", "\"\xf0\x9f\x9a\x80\""},
        {"c1\xc2\x85", "\"c1\xc2\x85\""},  // a C1 control is valid UTF-8, and JSON allows it
        {"bad\xff", "\"bad\xef\xbf\xbd\""},
        {"cut\xe2\x86", "\"cut\xef\xbf\xbd\xef\xbf\xbd\""},
        {"\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\""},
        {"\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""},
    };
    for (const auto& [text, json] : cases) {
        INFO(json);
        CHECK(written(text) == json);
        CHECK_NOTHROW(nlohmann::json::parse(json));
    }
}

TEST_CASE("json writer: with a sink, finished text goes to it and str() returns the rest", "[json-writer]") {
    const auto write = [](JsonWriter& json) {
        json.begin_object();
        json.key("phases").begin_array();
        for (int i = 0; i < 5000; ++i)
            json.begin_object(true).field("name", "phase " + std::to_string(i)).field("time", i * 0.5).end_object();
        json.end_array();
        json.end_object();
    };
    JsonWriter whole;
    write(whole);
    const std::string expected = whole.str();
    REQUIRE(expected.size() > (1 << 17));  // more than the 64 KB pieces

    std::ostringstream sink;
    JsonWriter streamed(&sink);
    write(streamed);
    const std::string written_first = sink.str();
    const std::string rest = streamed.str();
    CHECK_FALSE(written_first.empty());
    CHECK(written_first + rest == expected);
    CHECK(nlohmann::json::parse(expected).at("phases").size() == 5000);
}

TEST_CASE("json writer: a continuing list appends elements as if written in place", "[json-writer]") {
    const auto element = [](JsonWriter& json, int i) {
        json.begin_object(true).field("name", "p" + std::to_string(i)).field("time", i).end_object();
    };
    JsonWriter in_place;
    in_place.begin_object().field("schema_version", 1).key("phases").begin_array();
    for (int i = 0; i < 6; ++i) element(in_place, i);
    in_place.end_array().field("speedup", 2.0).end_object();
    const std::string expected = in_place.str();

    for (const bool with_sink : {false, true}) {
        INFO("with a sink: " << with_sink);
        std::ostringstream sink;
        JsonWriter json(with_sink ? &sink : nullptr);
        json.begin_object().field("schema_version", 1).key("phases").begin_array();
        element(json, 0);
        element(json, 1);
        // The object and the list: two containers deep, an element already written.
        JsonWriter block = JsonWriter::continuing_list(2);
        for (int i = 2; i < 5; ++i) element(block, i);
        json.append_elements(block);
        JsonWriter empty = JsonWriter::continuing_list(2);
        json.append_elements(empty);  // nothing to add
        element(json, 5);
        json.end_array().field("speedup", 2.0).end_object();
        CHECK(sink.str() + json.str() == expected);
    }
}
