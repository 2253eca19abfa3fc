// A large Chrome trace read by two threads (read_chrome_trace with a TraceSplit): the second starts
// at a guessed event near the middle. Whatever the guess hits, the profile and every message are
// the ones a single thread gives.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "analysis/replay.hpp"
#include "input/profilers/readers.hpp"

using namespace amdahl;
using namespace amdahl::detail;
using amdahl::Dependencies;

namespace {

// The trace read as a file is: a first chunk already read (the format sniff), then the rest from
// a stream; with `split`, a second stream can start anywhere.
struct Reading {
    std::string json;                       // profile_to_json of the result, or empty
    std::string error;                      // the message, or empty
    std::optional<std::uint64_t> split_at;  // where the second thread's part began, when it was used
    std::string graph;                      // the replay graph as text, when read with dependencies
};

// Every node, edge and wait of a replay graph, as text to compare.
std::string graph_text(const Dependencies& deps) {
    std::ostringstream out;
    out.precision(17);
    for (const ReplayEvent& e : deps.graph.events) out << e.start << ' ' << e.end << ' ' << e.phase << '\n';
    for (const ReplayEdge& e : deps.graph.edges) out << e.from << '>' << e.to << ' ' << e.delay << e.from_start << '\n';
    for (const ReplayWait& w : deps.graph.waits) out << w.call << '<' << w.awaited << '\n';
    for (const std::string& line : deps.sources) out << line << '\n';
    return out.str();
}

Reading read(const std::string& text, bool split, const ImportOptions& options = {}) {
    const std::size_t sniffed = std::min<std::size_t>(text.size(), 100);
    std::istringstream rest(text.substr(sniffed));
    TraceSplit parts;
    parts.size = text.size();
    parts.min_size = 0;
    Reading out;
    parts.used_at = &out.split_at;
    parts.open_at = [&text](std::uint64_t offset) -> std::unique_ptr<std::istream> {
        return std::make_unique<std::istringstream>(text.substr(static_cast<std::size_t>(offset)));
    };
    try {
        const Profile profile = read_chrome_trace(std::string_view(text).substr(0, sniffed), &rest, "t.json", options,
                                                  split ? &parts : nullptr);
        out.json = profile_to_json(profile);
        if (profile.dependencies) out.graph = graph_text(*profile.dependencies);
    } catch (const Error& e) {
        out.error = e.what();
    }
    return out;
}

// Both ways, and they agree; returns the two-thread reading.
Reading read_both(const std::string& text, const ImportOptions& options = {}) {
    const Reading one = read(text, false, options);
    const Reading two = read(text, true, options);
    CHECK(two.error == one.error);
    CHECK(two.json == one.json);
    CHECK(two.graph == one.graph);
    CHECK_FALSE(one.split_at);
    return two;
}

// The second part started at an event's '{' past the middle.
bool split_at_an_event(const Reading& r, const std::string& text) {
    return r.split_at && *r.split_at >= text.size() / 2 && text[*r.split_at] == '{';
}

std::string event(int i, const std::string& name = "") {
    const std::string n = name.empty() ? "k" + std::to_string(i % 7) : name;
    return "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + n +
           "\", \"pid\": 1, \"tid\": " + std::to_string(i % 3) + ", \"ts\": " + std::to_string(1000000 + 10 * i) +
           ".25, \"dur\": " + std::to_string(3 + i % 5) +
           ", \"args\": {\"stream\": 7, \"grid\": [1, 2, 3], \"list\": [{\"a\": 1}, {\"b\": \"]}\"}]}}";
}

// `count` events joined as a trace's array, one per line; `extra` goes before event `at` (by
// default in the middle).
std::string events(int count, const std::string& extra = "", int at = -1) {
    if (at < 0) at = count / 2;
    std::string out;
    for (int i = 0; i < count; ++i) {
        if (i == at && !extra.empty()) out += extra + ",\n";
        out += event(i) + (i + 1 < count ? ",\n" : "\n");
    }
    return out;
}

ImportOptions all_lanes() {
    ImportOptions options;
    options.lane = Lane::all;
    return options;
}

}  // namespace

TEST_CASE("trace split: two threads give the profile one thread gives", "[trace][split]") {
    SECTION("an object with traceEvents, members before and after") {
        const std::string text = "{\"schemaVersion\": 1, \"traceEvents\": [\n" + events(400) +
                                 "], \"displayTimeUnit\": \"ms\", \"x\": [{\"y\": 1}, {\"z\": 2}]}\n";
        const Reading r = read_both(text);
        CHECK(r.error.empty());
        CHECK(split_at_an_event(r, text));
        CHECK(r.json.find("\"k6\"") != std::string::npos);
    }
    SECTION("a bare array of events") {
        const std::string text = "[\n" + events(400) + "]\n";
        const Reading r = read_both(text);
        CHECK(r.error.empty());
        CHECK(split_at_an_event(r, text));
    }
    SECTION("B/E pairs and names with escapes on both sides of the middle") {
        std::string text = "{\"traceEvents\": [\n";
        for (int i = 0; i < 300; ++i) {
            const std::string ts = std::to_string(2000 + 20 * i);
            const std::string end = std::to_string(2000 + 20 * i + 9);
            text += "{\"ph\": \"B\", \"name\": \"step \\\"" + std::to_string(i % 4) +
                    "\\\"\", \"pid\": 2, \"tid\": 1, \"ts\": " + ts +
                    "},\n{\"ph\": \"E\", \"pid\": 2, \"tid\": 1, \"ts\": " + end + "},\n";
            text += "{\"ph\": \"M\", \"name\": \"thread_name\", \"args\": {\"name\": \"t\"}},\n";
        }
        text += event(1) + "\n]}";
        const Reading r = read_both(text, all_lanes());
        CHECK(r.error.empty());
        CHECK(split_at_an_event(r, text));
        CHECK(r.json.find("step \\\"3\\\"") != std::string::npos);
    }
    SECTION("with dependencies for replay: the same graph, correlation ids from both halves") {
        std::string text = "{\"traceEvents\": [\n";
        for (int i = 0; i < 300; ++i) {
            const std::string id = std::to_string(i + 1);
            text +=
                "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
                "\"tid\": 1, \"ts\": " +
                std::to_string(10 * i) + ", \"dur\": 2, \"args\": {\"correlation\": " + id + "}},\n";
            text += "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": " +
                    std::to_string(10 * i + 4) + ", \"dur\": 3, \"args\": {\"grid\": [1], \"correlation\": " + id +
                    "}},\n";
        }
        text +=
            "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaDeviceSynchronize\", \"pid\": 1, "
            "\"tid\": 1, \"ts\": 3000, \"dur\": 10}\n]}";
        ImportOptions options;
        options.dependencies = true;
        const Reading r = read_both(text, options);
        CHECK(r.error.empty());
        CHECK(split_at_an_event(r, text));
        CHECK(r.graph.find("300 GPU events linked to their runtime call") != std::string::npos);
    }
    SECTION("the first timed event is in the second half: it is the origin") {
        std::string text = "[\n";
        for (int i = 0; i < 400; ++i) text += "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1},\n";
        text += events(20) + "]";
        const Reading r = read_both(text);
        CHECK(r.error.empty());
        CHECK(split_at_an_event(r, text));
    }
}

TEST_CASE("trace split: the guess is an event of the events array, or it is dropped", "[trace][split]") {
    SECTION("objects in an event's args and text that looks like events are passed over") {
        // The middle falls in one long name that looks like events, then in an args array of
        // objects: neither reads as an event, and the second part starts at the next real one.
        std::string lookalike;
        for (int i = 0; i < 400; ++i) lookalike += "}, {\\\"ph\\\": \\\"X\\\", ";
        std::string args = "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + lookalike +
                           "\", \"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": 1, \"args\": {\"list\": [";
        for (int i = 0; i < 2000; ++i) args += std::string(i ? ", " : "") + "{\"a\": " + std::to_string(i) + "}";
        args += "]}}";
        const std::string text = "[\n" + events(40, args) + "]";
        const Reading r = read_both(text);
        CHECK(r.error.empty());
        REQUIRE(split_at_an_event(r, text));
        CHECK(text.compare(*r.split_at, event(20).size(), event(20)) == 0);  // the event after the long one
    }
    SECTION("an object in args that reads as an event: the first part passes it and reads on alone") {
        std::string args =
            "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"big\", \"pid\": 1, \"tid\": 1, "
            "\"ts\": 5, \"dur\": 1, \"args\": {\"copies\": [";
        for (int i = 0; i < 2000; ++i)
            args +=
                std::string(i ? ", " : "") + "{\"ph\": \"X\", \"name\": \"fake\", \"ts\": " + std::to_string(i) + "}";
        args += "]}}";
        const Reading r = read_both("[\n" + events(40, args) + "]");
        CHECK(r.error.empty());
        CHECK_FALSE(r.split_at);
        CHECK(r.json.find("fake") == std::string::npos);
    }
    SECTION("the guess is past the events array, in another member") {
        std::string text = "{\"traceEvents\": [\n" + events(10) + "], \"other\": [";
        for (int i = 0; i < 2000; ++i)
            text +=
                std::string(i ? ", " : "") + "{\"ph\": \"X\", \"name\": \"fake\", \"ts\": " + std::to_string(i) + "}";
        const Reading r = read_both(text + "]}");
        CHECK(r.error.empty());
        CHECK_FALSE(r.split_at);
    }
}

TEST_CASE("trace split: errors are the ones one thread reports, where it reports them", "[trace][split]") {
    SECTION("a bad timestamp in the second half") {
        const Reading r = read_both(
            "[\n" + events(300, "{\"ph\": \"X\", \"name\": \"bad\", \"ts\": \"soon\", \"dur\": 1}", 220) + "]");
        // "[" is line 1, event i line i + 2: the bad one is line 222.
        CHECK(r.error.find("t.json:222:1: event 'bad' (ph X): \"ts\" must be a number") != std::string::npos);
    }
    SECTION("an E with no B in the second half names its line") {
        const Reading r = read_both(
            "[\n" + events(300, "{\"ph\": \"E\", \"name\": \"nope\", \"pid\": 9, \"tid\": 9, \"ts\": 1}", 250) + "]",
            all_lanes());
        CHECK(r.error.find("t.json:252:") != std::string::npos);
    }
    SECTION("traceEvents twice, the second after the split") {
        const Reading r = read_both("{\"traceEvents\": [\n" + events(300) + "], \"traceEvents\": []}");
        CHECK(r.error.find("\"traceEvents\" appears twice") != std::string::npos);
    }
    SECTION("text after the trace") {
        const Reading r = read_both("[\n" + events(300) + "]\n[]");
        CHECK(r.error.find("unexpected text after the trace") != std::string::npos);
    }
    SECTION("a trace cut short in the second half is read as far as it goes") {
        const std::string whole = "{\"traceEvents\": [\n" + events(300);
        const Reading r = read_both(whole.substr(0, whole.size() * 3 / 4));
        CHECK(r.error.find("truncated") != std::string::npos);
        CHECK(read_both(whole).error.empty());
    }
}

TEST_CASE("trace split: a first part with no timed event, whose guess is dropped, does not hang", "[trace][split]") {
    // Found by fuzz_chrome_trace: the only top-level event is metadata, its args hold objects that
    // read as events, the guess lands among them and waits for the first part's origin, which
    // never comes; the first part used to join it there, forever.
    // Large, so that the second part reaches its first event long before the first part has read
    // the one event that holds it all.
    std::string args;
    for (int i = 0; i < 200000; ++i)
        args += std::string(i ? ", " : "") + "{\"ph\": \"X\", \"name\": \"k\", \"ts\": " + std::to_string(i) +
                ", \"dur\": 1}";
    const std::string text = "[{\"ph\": \"M\", \"name\": \"process_name\", \"args\": {\"list\": [" + args + "]}}]";
    const Reading r = read_both(text);
    CHECK_FALSE(r.split_at);
    CHECK_THAT(r.error, Catch::Matchers::Contains("no events with a duration"));
}
