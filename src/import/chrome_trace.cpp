// Chrome Trace Event JSON (PyTorch/Kineto, Perfetto, ...), read as a stream: events are parsed one
// at a time and only what the sweep needs is kept (a span of a few dozen bytes per event).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "import/json_stream.hpp"
#include "import/readers.hpp"
#include "import/timeline.hpp"

namespace amdahl::detail {

namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// The fields of one event that matter here, as raw tokens of the event's text.
struct EventFields {
    char ph = 0;
    std::string_view name, cat;  // string bodies, still escaped
    bool name_escaped = false, cat_escaped = false;
    std::string_view ts, dur, tdur, pid, tid;  // number (or string) tokens
};

// A cursor over one complete JSON object's text.
class ObjectParser {
public:
    explicit ObjectParser(std::string_view text) : text_(text) {}

    // Calls `on_field(key, value_token)` for each top-level member; throws std::invalid_argument.
    template <class F>
    void members(F&& on_field) {
        expect('{');
        skip_space();
        if (peek() == '}') return;
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
            if (c == '}') return;
            if (c != ',') throw std::invalid_argument("expected ',' or '}' between members");
        }
    }

private:
    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    char next() {
        if (pos_ >= text_.size()) throw std::invalid_argument("unexpected end of the event");
        return text_[pos_++];
    }
    void expect(char c) {
        if (next() != c) throw std::invalid_argument(std::string("expected '") + c + "'");
    }
    void skip_space() {
        while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
    }
    std::string_view string_body() {
        expect('"');
        const std::size_t start = pos_;
        while (pos_ < text_.size() && text_[pos_] != '"') pos_ += text_[pos_] == '\\' ? 2 : 1;
        if (pos_ >= text_.size()) throw std::invalid_argument("unterminated string");
        return text_.substr(start, pos_++ - start);
    }
    void skip_value() {
        const char c = peek();
        if (c == '"') {
            string_body();
        } else if (c == '{' || c == '[') {
            int depth = 0;
            do {
                const char d = next();
                if (d == '"') {
                    --pos_;
                    string_body();
                } else if (d == '{' || d == '[') {
                    ++depth;
                } else if (d == '}' || d == ']') {
                    --depth;
                }
            } while (depth > 0);
        } else {
            const std::size_t start = pos_;
            while (pos_ < text_.size() && !is_space(text_[pos_]) && text_[pos_] != ',' && text_[pos_] != '}' &&
                   text_[pos_] != ']')
                ++pos_;
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

EventFields parse_event(std::string_view text) {
    EventFields f;
    ObjectParser(text).members([&](std::string_view key, std::string_view value) {
        if (key == "ph") {
            const std::string_view ph = unquote(value);
            f.ph = ph.empty() ? '?' : ph.front();
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
    return f;
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
    out.whole = static_cast<std::int64_t>(std::floor(value));
    out.fraction = value - static_cast<double>(out.whole);
    return true;
}

bool parse_duration(std::string_view token, double& out) {
    const auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
    return ec == std::errc() && p == token.data() + token.size() && std::isfinite(out);
}

// A B or E event waiting to be paired.
struct Mark {
    double time;
    std::uint32_t name, category, track;
    std::size_t order;
    bool begin;
    std::string where;
};

class TraceBuilder {
public:
    TraceBuilder(Timeline& timeline, JsonStream& stream) : timeline_(timeline), stream_(stream) {}

    void add(std::string_view text) {
        EventFields f;
        try {
            f = parse_event(text);
        } catch (const std::invalid_argument& e) {
            throw Error(stream_.location(text.size()), std::string("malformed trace event: ") + e.what());
        }
        ++events_;
        if (f.ph != 'X' && f.ph != 'B' && f.ph != 'E') return;  // metadata, instants, counters, flows
        Timestamp ts;
        if (!parse_timestamp(f.ts, ts)) {
            throw Error(stream_.location(text.size()), "event '" + printable(f.name) + "' (ph " + f.ph +
                                                           "): \"ts\" must be a number (got '" + printable(f.ts) + "')");
        }
        if (!have_origin_) {
            origin_ = ts.whole;
            have_origin_ = true;
        }
        const double start = static_cast<double>(ts.whole - origin_) + ts.fraction;
        const std::uint32_t name = intern(f.name, f.name_escaped);
        const std::uint32_t category = intern(f.cat, f.cat_escaped);
        key_.assign(f.pid).append("/").append(f.tid);
        const std::uint32_t track = timeline_.track(key_);
        if (f.ph == 'X') {
            double duration = 0;
            const std::string_view token = !f.dur.empty() ? f.dur : f.tdur;
            if (!token.empty() && (!parse_duration(token, duration) || duration < 0)) {
                throw Error(stream_.location(text.size()), "event '" + printable(f.name) + "': \"dur\" must be a number >= 0 (got '" +
                                                               printable(token) + "')");
            }
            add_span(start, start + duration, name, category, track);
            return;
        }
        marks_.push_back({start, name, category, track, marks_.size(), f.ph == 'B', stream_.location(text.size())});
    }

    // Pairs B/E events per track, in time order; an E closes the latest open B of its name (or
    // the latest B when it has no name).
    void finish() {
        std::stable_sort(marks_.begin(), marks_.end(), [](const Mark& a, const Mark& b) {
            return a.track != b.track ? a.track < b.track : a.time < b.time;
        });
        std::vector<const Mark*> open;
        std::vector<bool> used(marks_.size(), false);
        for (std::size_t i = 0; i < marks_.size(); ++i) {
            if (i > 0 && marks_[i].track != marks_[i - 1].track) close_unmatched(open);
            const Mark& m = marks_[i];
            if (used[i]) continue;
            if (m.begin) {
                open.push_back(&m);
                continue;
            }
            auto match = open.end();
            for (auto it = open.rbegin(); it != open.rend(); ++it) {
                if (m.name == 0 || (*it)->name == m.name) {
                    match = std::next(it).base();
                    break;
                }
            }
            if (match != open.end()) {
                add_span((*match)->time, m.time, (*match)->name, (*match)->category, m.track);
                open.erase(match);
                continue;
            }
            // An E listed before its B at the same instant: a zero-length span.
            bool paired = false;
            for (std::size_t j = i + 1; j < marks_.size() && marks_[j].track == m.track && marks_[j].time == m.time; ++j) {
                if (marks_[j].begin && !used[j] && marks_[j].name == m.name) {
                    used[j] = paired = true;
                    add_span(m.time, m.time, m.name, marks_[j].category, m.track);
                    break;
                }
            }
            if (!paired) {
                throw Error(m.where, "an \"E\" event for '" + printable(timeline_.text(m.name)) +
                                         "' has no matching \"B\" event before it on its thread");
            }
        }
        close_unmatched(open);
    }

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
        span.cls = classify_category(timeline_.text(category));
        timeline_.spans.push_back(span);
        last_end_ = std::max(last_end_, end);
    }

    // A B never closed runs to the end of the trace.
    void close_unmatched(std::vector<const Mark*>& open) {
        for (const Mark* m : open) {
            add_span(m->time, std::max(m->time, last_end_), m->name, m->category, m->track);
            ++unclosed_;
        }
        open.clear();
    }

    Timeline& timeline_;
    JsonStream& stream_;
    std::vector<Mark> marks_;
    std::string key_, scratch_;
    std::int64_t origin_ = 0;
    bool have_origin_ = false;
    double last_end_ = 0;
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
        builder.add(stream.read_value("a trace event"));
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
    if (first == '[') {
        stream.skip(1);
        read_events(stream, builder);
    } else if (first == '{') {
        stream.skip(1);
        bool found = false;
        std::string key;
        while (!found) {
            const char c = stream.peek();
            if (c == ',') {
                stream.skip(1);
                continue;
            }
            if (c == '}' || c == '\0') break;
            if (c != '"') throw Error(stream.location(), "malformed JSON: expected a key");
            stream.read_string(key);
            if (stream.peek() != ':') throw Error(stream.location(), "malformed JSON: expected ':' after a key");
            stream.skip(1);
            if (key == "traceEvents") {
                if (stream.peek() != '[') throw Error(stream.location(), "\"traceEvents\" must be an array");
                stream.skip(1);
                read_events(stream, builder);
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
    profile.notes.insert(profile.notes.begin(),
                         source + ": " + std::to_string(builder.events()) + " trace events, " +
                             std::to_string(timeline.spans.size()) + " with a duration");
    if (builder.unclosed() > 0) {
        profile.notes.push_back(source + ": " + std::to_string(builder.unclosed()) +
                                " \"B\" events never closed; they run to the end of the trace");
    }
    return profile;
}

}  // namespace amdahl::detail
