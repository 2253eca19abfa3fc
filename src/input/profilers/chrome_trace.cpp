// Chrome Trace Event JSON (PyTorch/Kineto, Perfetto, ...), read as a stream: events are parsed one
// at a time and only what the sweep needs is kept (a span of a few dozen bytes per event).
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "input/profilers/begin_end.hpp"
#include "input/profilers/json_stream.hpp"
#include "input/profilers/readers.hpp"
#include "input/profilers/timeline.hpp"

namespace amdahl::detail {

namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Bytes that change the nesting while skipping a value: quotes and brackets.
constexpr auto structural = [] {
    std::array<bool, 256> table{};
    for (unsigned char c : {'"', '{', '}', '[', ']'}) table[c] = true;
    return table;
}();

// The fields of one event that matter here, as raw tokens of the event's text.
struct EventFields {
    char ph = 0;
    std::string_view name, cat;  // string bodies, still escaped
    bool name_escaped = false, cat_escaped = false;
    std::string_view ts, dur, tdur, pid, tid;  // number (or string) tokens
};

// A cursor over the text of one event at the start of `text`. Running off the end of `text`
// throws JsonStream::NeedMore: the caller supplies more and parses the event again.
class ObjectParser {
public:
    explicit ObjectParser(std::string_view text) : text_(text) {}

    // Calls `on_field(key, value_token)` for each top-level member and returns the bytes consumed;
    // throws std::invalid_argument for malformed JSON.
    template <class F>
    std::size_t members(F&& on_field) {
        expect('{');
        skip_space();
        if (peek() == '}') return pos_ + 1;
        for (;;) {
            skip_space();
            const std::string_view key = string_body();
            skip_space();
            expect(':');
            skip_space();
            const std::size_t start = pos_;
            skip_value();
            on_field(key, text_.substr(start, pos_ - start));
            skip_space();
            const char c = next();
            if (c == '}') return pos_;
            if (c != ',') throw std::invalid_argument("expected ',' or '}' between members");
        }
    }

private:
    char peek() const {
        if (pos_ >= text_.size()) throw JsonStream::NeedMore{};
        return text_[pos_];
    }
    char next() {
        const char c = peek();
        ++pos_;
        return c;
    }
    void expect(char c) {
        if (next() != c) throw std::invalid_argument(std::string("expected '") + c + "'");
    }
    void skip_space() {
        while (is_space(peek())) ++pos_;
    }
    std::string_view string_body() {
        expect('"');
        const std::size_t start = pos_;
        for (;;) {
            const void* quote = std::memchr(text_.data() + pos_, '"', text_.size() - pos_);
            if (!quote) throw JsonStream::NeedMore{};
            const std::size_t q = static_cast<std::size_t>(static_cast<const char*>(quote) - text_.data());
            // The quote ends the string unless an odd number of backslashes precede it.
            std::size_t slashes = 0;
            while (q - slashes > start && text_[q - slashes - 1] == '\\') ++slashes;
            pos_ = q + 1;
            if (slashes % 2 == 0) return text_.substr(start, q - start);
        }
    }
    void skip_value() {
        const char c = peek();
        if (c == '"') {
            string_body();
        } else if (c == '{' || c == '[') {
            // Nested values ("args") are skipped: jump between the bytes that matter.
            int depth = 0;
            const char* data = text_.data();
            do {
                while (pos_ < text_.size() && !structural[static_cast<unsigned char>(data[pos_])]) ++pos_;
                const char d = peek();
                if (d == '"') {
                    string_body();
                    continue;
                }
                if (d == '{' || d == '[')
                    ++depth;
                else
                    --depth;
                ++pos_;
            } while (depth > 0);
        } else {
            const std::size_t start = pos_;
            while (!is_space(peek()) && text_[pos_] != ',' && text_[pos_] != '}' && text_[pos_] != ']') ++pos_;
            if (pos_ == start) throw std::invalid_argument("expected a value");
        }
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

std::string_view unquote(std::string_view token, bool* escaped = nullptr) {
    if (token.size() >= 2 && token.front() == '"') {
        token = token.substr(1, token.size() - 2);
        if (escaped) *escaped = token.find('\\') != std::string_view::npos;
    }
    return token;
}

// Parses the event at the start of `text` into `f`; returns the bytes it takes.
std::size_t parse_event(std::string_view text, EventFields& f) {
    f = EventFields{};
    return ObjectParser(text).members([&](std::string_view key, std::string_view value) {
        if (key == "ph") {
            const std::string_view ph = unquote(value);
            // One letter; "Xyz" is no event type a trace viewer knows, so not an X (complete) event.
            f.ph = ph.size() == 1 ? ph.front() : '?';
        } else if (key == "name") {
            if (value.front() == '"') f.name = unquote(value, &f.name_escaped);
        } else if (key == "cat") {
            if (value.front() == '"') f.cat = unquote(value, &f.cat_escaped);
        } else if (key == "ts") {
            f.ts = unquote(value);
        } else if (key == "dur") {
            f.dur = unquote(value);
        } else if (key == "tdur") {
            f.tdur = unquote(value);
        } else if (key == "pid") {
            f.pid = unquote(value);
        } else if (key == "tid") {
            f.tid = unquote(value);
        }
    });
}

// A timestamp in µs split into an exact integer part and a fraction, so that microsecond
// timestamps of 1.6e15 keep their sub-microsecond digits after the origin is subtracted.
struct Timestamp {
    std::int64_t whole = 0;
    double fraction = 0;
};

bool parse_timestamp(std::string_view token, Timestamp& out) {
    if (token.empty()) return false;
    const auto dot = token.find_first_of(".eE");
    if (dot == std::string_view::npos || token[dot] == '.') {
        const std::string_view whole = token.substr(0, dot);
        const auto [p, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), out.whole);
        if (ec != std::errc() || p != whole.data() + whole.size()) return false;
        out.fraction = 0;
        if (dot != std::string_view::npos) {
            const std::string fraction = "0" + std::string(token.substr(dot));
            const auto [q, ec2] = std::from_chars(fraction.data(), fraction.data() + fraction.size(), out.fraction);
            if (ec2 != std::errc() || q != fraction.data() + fraction.size()) return false;
            if (!whole.empty() && whole.front() == '-') out.fraction = -out.fraction;
        }
        return true;
    }
    double value = 0;  // exponent form: rare; a double is all there is
    const auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || p != token.data() + token.size() || !std::isfinite(value)) return false;
    // Past ±2^63 µs (292,000 years) a number is no timestamp, and no int64 holds it.
    if (!(std::fabs(value) < 9.2e18)) return false;
    out.whole = static_cast<std::int64_t>(std::floor(value));
    out.fraction = value - static_cast<double>(out.whole);
    return true;
}

bool parse_duration(std::string_view token, double& out) {
    const auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
    return ec == std::errc() && p == token.data() + token.size() && std::isfinite(out);
}

class TraceBuilder {
public:
    TraceBuilder(Timeline& timeline, JsonStream& stream) : timeline_(timeline), stream_(stream) {}

    // Reads the event at the stream's cursor.
    void add_next() {
        EventFields f;
        std::size_t size = 0;
        stream_.parse_here(
            [&](std::string_view text) {
                try {
                    return size = parse_event(text, f);
                } catch (const std::invalid_argument& e) {
                    throw Error(stream_.location(), std::string("malformed trace event: ") + e.what());
                }
            },
            "a trace event");
        add(f, size);
    }

private:
    void add(const EventFields& f, std::size_t size) {
        // Messages point at the event's first byte: the cursor is `size` bytes past it now.
        ++events_;
        if (f.ph != 'X' && f.ph != 'B' && f.ph != 'E') return;  // metadata, instants, counters, flows
        Timestamp ts;
        if (!parse_timestamp(f.ts, ts)) {
            throw Error(stream_.location(size), "event '" + printable(f.name) + "' (ph " + f.ph +
                                                    "): \"ts\" must be a number (got '" + printable(f.ts) + "')");
        }
        if (!have_origin_) {
            origin_ = ts.whole;
            have_origin_ = true;
        }
        // Timestamps more than 2^63 µs apart cannot both be real: refuse rather than overflow.
        const bool too_far = origin_ < 0 ? ts.whole > std::numeric_limits<std::int64_t>::max() + origin_
                                         : ts.whole < std::numeric_limits<std::int64_t>::min() + origin_;
        if (too_far) {
            throw Error(stream_.location(size), "event '" + printable(f.name) +
                                                    "': \"ts\" is too far from the first event's (got '" +
                                                    printable(f.ts) + "')");
        }
        const double start = static_cast<double>(ts.whole - origin_) + ts.fraction;
        const std::uint32_t name = intern(f.name, f.name_escaped);
        const std::uint32_t category = intern(f.cat, f.cat_escaped);
        key_.assign(f.pid).append("/").append(f.tid);
        const std::uint32_t track = timeline_.track(key_, f.pid, f.tid);
        if (f.ph == 'X') {
            double duration = 0;
            const std::string_view token = !f.dur.empty() ? f.dur : f.tdur;
            if (!token.empty() && (!parse_duration(token, duration) || duration < 0)) {
                throw Error(stream_.location(size), "event '" + printable(f.name) +
                                                        "': \"dur\" must be a number >= 0 (got '" + printable(token) +
                                                        "')");
            }
            add_span(start, start + duration, name, category, track);
            return;
        }
        const JsonStream::Position at = stream_.position(size);
        marks_.push_back({start, name, category, track, f.ph == 'B', at.line, at.column});
    }

public:
    // Pairs the B/E events (see pair_begin_end); a B never closed runs to the last instant any
    // event reaches.
    void finish() {
        double trace_end = last_end_;
        for (const Mark& m : marks_) trace_end = std::max(trace_end, m.time);
        const Pairing pairing = pair_begin_end(marks_, trace_end, timeline_, stream_.source());
        for (const PairedSpan& s : pairing.spans) add_span(s.start, s.end, s.name, s.category, s.track);
        unclosed_ = pairing.unclosed;
    }

public:
    std::size_t events() const { return events_; }
    std::size_t unclosed() const { return unclosed_; }

private:
    std::uint32_t intern(std::string_view body, bool escaped) {
        if (!escaped) return timeline_.intern(body);
        try {
            unescape_json(body, scratch_);
        } catch (const std::invalid_argument& e) {
            throw Error(stream_.location(), std::string("bad string in an event: ") + e.what());
        }
        return timeline_.intern(scratch_);
    }

    void add_span(double start, double end, std::uint32_t name, std::uint32_t category, std::uint32_t track) {
        Span span;
        span.start = start;
        span.end = end;
        span.name = name;
        span.category = category;
        span.track = track;
        if (category >= classes_.size()) classes_.resize(category + 1, -1);
        if (classes_[category] < 0) classes_[category] = static_cast<int>(classify_category(timeline_.text(category)));
        span.cls = static_cast<SpanClass>(classes_[category]);
        timeline_.spans.push_back(span);
        last_end_ = std::max(last_end_, end);
    }

    Timeline& timeline_;
    JsonStream& stream_;
    std::vector<Mark> marks_;
    std::string key_, scratch_;
    std::vector<int> classes_;  // SpanClass per category id, -1 until seen
    std::int64_t origin_ = 0;
    bool have_origin_ = false;
    double last_end_ = 0;  // of the spans so far
    std::size_t events_ = 0, unclosed_ = 0;
};

// Reads the events array at the cursor ('[' already consumed). A missing closing bracket and a
// trailing comma are allowed: traces written by a process that died end that way.
void read_events(JsonStream& stream, TraceBuilder& builder) {
    for (;;) {
        const char c = stream.peek();
        if (c == '\0' || c == ']') return;
        if (c == ',') {
            stream.skip(1);
            continue;
        }
        if (c != '{') throw Error(stream.location(), std::string("expected a trace event object, got '") + c + "'");
        builder.add_next();
    }
}

}  // namespace

Profile read_chrome_trace(std::string_view prefix, std::istream* in, const std::string& source,
                          const ImportOptions& options) {
    JsonStream stream(prefix, in, source);
    Timeline timeline;
    timeline.unit = Unit::us;
    TraceBuilder builder(timeline, stream);
    const char first = stream.peek();
    // After the trace, only white space: text there is another document or a damaged file.
    const auto expect_end = [&stream] {
        if (stream.peek() != '\0') throw Error(stream.location(), "unexpected text after the trace");
    };
    if (first == '[') {
        stream.skip(1);
        read_events(stream, builder);
        if (stream.peek() == ']') {
            stream.skip(1);
            expect_end();
        }
    } else if (first == '{') {
        stream.skip(1);
        bool found = false;
        std::string key;
        for (;;) {
            const char c = stream.peek();
            if (c == ',') {
                stream.skip(1);
                continue;
            }
            if (c == '\0') break;  // a trace cut short by a process that died: read what is there
            if (c == '}') {
                stream.skip(1);
                expect_end();
                break;
            }
            if (c != '"') throw Error(stream.location(), "malformed JSON: expected a key");
            stream.read_string(key);
            if (stream.peek() != ':') throw Error(stream.location(), "malformed JSON: expected ':' after a key");
            stream.skip(1);
            if (key == "traceEvents") {
                if (found) throw Error(stream.location(), "\"traceEvents\" appears twice");
                if (stream.peek() != '[') throw Error(stream.location(), "\"traceEvents\" must be an array");
                stream.skip(1);
                read_events(stream, builder);
                if (stream.peek() == ']') stream.skip(1);
                found = true;
            } else {
                stream.read_value("the value of \"" + key + "\"");
            }
        }
        if (!found) throw Error(source, "no \"traceEvents\" array in the trace");
    } else {
        throw Error(stream.location(), "not a Chrome trace (expected '{' or '[')");
    }
    builder.finish();
    Profile profile = sweep(timeline, options, source, "chrome-trace");
    profile.notes.insert(profile.notes.begin(), source + ": " + std::to_string(builder.events()) + " trace events, " +
                                                    std::to_string(timeline.spans.size()) + " with a duration");
    if (builder.unclosed() > 0) {
        profile.notes.push_back(source + ": " + std::to_string(builder.unclosed()) +
                                " \"B\" events never closed; they run to the end of the trace");
    }
    return profile;
}

}  // namespace amdahl::detail
