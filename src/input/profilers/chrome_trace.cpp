// Chrome Trace Event JSON (PyTorch/Kineto, Perfetto, ...), read as a stream: events are parsed one
// at a time and only what the sweep needs is kept (a span of a few dozen bytes per event).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "input/profilers/begin_end.hpp"
#include "input/profilers/dependencies.hpp"
#include "input/profilers/json_stream.hpp"
#include "input/profilers/readers.hpp"
#include "input/profilers/timeline.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// The first byte at or after `pos` that is a quote (or, with `brackets`, a bracket or brace),
// or text.size() when there is none. Sixteen bytes at a time where the machine can.
template <bool brackets>
std::size_t find_special(std::string_view text, std::size_t pos) {
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"');
    // '[' | 0x20 is '{' and ']' | 0x20 is '}': one comparison each covers both kinds.
    const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}'), lower = _mm_set1_epi8(0x20);
    for (; pos + 16 <= text.size(); pos += 16) {
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + pos));
        __m128i hits = _mm_cmpeq_epi8(chunk, quote);
        if constexpr (brackets) {
            const __m128i folded = _mm_or_si128(chunk, lower);
            hits = _mm_or_si128(hits, _mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close)));
        }
        if (const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hits))) return pos + std::countr_zero(mask);
    }
#endif
    for (; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (c == '"') return pos;
        if constexpr (brackets)
            if (c == '{' || c == '}' || c == '[' || c == ']') return pos;
    }
    return pos;
}

#ifdef __SSE2__
// Bit i set where byte i of the 64 at `p` equals `c` (after OR-ing `fold` into each byte).
std::uint64_t bits_of(const char* p, char c, char fold = 0) {
    const __m128i needle = _mm_set1_epi8(c), folding = _mm_set1_epi8(fold);
    std::uint64_t bits = 0;
    for (int k = 0; k < 4; ++k) {
        const __m128i chunk = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k)), folding);
        bits |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, needle))))
                << (16 * k);
    }
    return bits;
}
#endif

// Skips the object or array that starts at `pos`, 64 bytes at a time: a mask of the bytes inside
// strings (a running XOR of the quotes) leaves the brackets that count. Returns the offset just
// past the value, or 0 when the byte-wise skip must decide: a backslash (an escaped quote may be
// there) or the value running into the last 64 bytes of `text`.
std::size_t skip_nested(std::string_view text, std::size_t pos) {
#ifdef __SSE2__
    int depth = 0;
    std::uint64_t in_string = 0;  // all ones when the previous block ended inside a string
    for (std::size_t at = pos; at + 64 <= text.size(); at += 64) {
        const char* p = text.data() + at;
        if (bits_of(p, '\\')) return 0;
        const std::uint64_t quotes = bits_of(p, '"');
        // Prefix XOR: bit i is the parity of the quotes at or before i, so set inside strings.
        std::uint64_t inside = quotes;  // the value starts outside any string
        for (int shift = 1; shift < 64; shift *= 2) inside ^= inside << shift;
        inside ^= in_string;
        in_string = (inside >> 63) ? ~std::uint64_t{0} : 0;
        // '[' | 0x20 is '{', ']' | 0x20 is '}'.
        const std::uint64_t opens = bits_of(p, '{', 0x20) & ~inside, closes = bits_of(p, '}', 0x20) & ~inside;
        for (std::uint64_t brackets = opens | closes; brackets != 0; brackets &= brackets - 1) {
            const std::uint64_t bit = brackets & (~brackets + 1);
            depth += (opens & bit) ? 1 : -1;
            if (depth == 0) return at + static_cast<std::size_t>(std::countr_zero(bit)) + 1;
        }
    }
#else
    (void)text;
    (void)pos;
#endif
    return 0;
}

// The fields of one event that matter here, as raw tokens of the event's text.
struct EventFields {
    char ph = 0;
    std::string_view name, cat;  // string bodies, still escaped
    bool name_escaped = false, cat_escaped = false;
    std::string_view ts, dur, tdur, pid, tid;  // number (or string) tokens
    std::string_view id;                       // a flow's id token
    std::string_view args;                     // the "args" object's text, read only for dependencies
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
            const std::size_t q = find_special<false>(text_, pos_);
            if (q == text_.size()) throw JsonStream::NeedMore{};
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
            if (const std::size_t end = skip_nested(text_, pos_)) {
                pos_ = end;
                return;
            }
            // Nested values ("args") are skipped: jump between the bytes that matter.
            int depth = 0;
            do {
                pos_ = find_special<true>(text_, pos_);
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
        } else if (key == "id") {
            f.id = unquote(value);
        } else if (key == "tid") {
            f.tid = unquote(value);
        } else if (key == "args") {
            f.args = value;
        }
    });
}

// A whole number token (a JSON number or a quoted one); nullopt when it is none.
template <class T>
std::optional<T> whole_number(std::string_view token) {
    token = unquote(token);
    T value{};
    const auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || p != token.data() + token.size()) return std::nullopt;
    return value;
}

// Calls `on_member(key, value)` for each member of an event's args object; args that are no
// object, or malformed, give nothing.
template <class F>
void args_members(std::string_view args, F&& on_member) {
    if (args.empty() || args.front() != '{') return;
    try {
        ObjectParser(args).members(on_member);
    } catch (const std::invalid_argument&) {
    } catch (const JsonStream::NeedMore&) {  // args the event's own skip took whole, read here as cut off
    }
}

// The "correlation" of an event's args: Kineto's link from a runtime call (cudaLaunchKernel) to
// the GPU work it launched; 0 when there is none, or it is no whole number.
std::uint64_t correlation_of(std::string_view args) {
    std::uint64_t id = 0;
    args_members(args, [&](std::string_view key, std::string_view value) {
        if (key == "correlation") id = whole_number<std::uint64_t>(value).value_or(0);
    });
    return id;
}

// What a Kineto cuda_sync marker's args say about its wait (Timeline::sync_markers).
SyncMarker sync_marker_of(std::string_view args, std::uint32_t span) {
    SyncMarker marker;
    marker.span = span;
    args_members(args, [&](std::string_view key, std::string_view value) {
        if (key == "stream") {
            marker.stream = whole_number<std::int64_t>(value).value_or(-1);
        } else if (key == "wait_on_stream") {
            marker.wait_on_stream = whole_number<std::int64_t>(value).value_or(-1);
        } else if (key == "wait_on_cuda_event_record_corr_id") {
            const auto id = whole_number<std::int64_t>(value);
            marker.record = id && *id > 0 ? static_cast<std::uint64_t>(*id) : 0;
        }
    });
    return marker;
}

// A timestamp in µs split into an exact integer part and a fraction, so that microsecond
// timestamps of 1.6e15 keep their sub-microsecond digits after the origin is subtracted.
struct Timestamp {
    std::int64_t whole = 0;
    double fraction = 0;
};

bool parse_timestamp(std::string_view token, Timestamp& out) {
    if (token.empty()) return false;
    // The first '.', 'e' or 'E' (find_first_of would call memchr for every byte).
    std::size_t dot = std::string_view::npos;
    for (std::size_t i = 0; i < token.size() && dot == std::string_view::npos; ++i)
        if (token[i] == '.' || token[i] == 'e' || token[i] == 'E') dot = i;
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

// The first timed event's timestamp, which every start is measured from, passed from the part of
// a trace read first to the part read at the same time (empty: the first part has none).
using SharedOrigin = std::shared_future<std::optional<std::int64_t>>;

// A JSON number too large for a double ("1e999"): a number all the same, so messages say it is
// too large rather than not a number.
bool beyond_double(std::string_view token) {
    double value = 0;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    return error == std::errc::result_out_of_range && end == token.data() + token.size();
}

class TraceBuilder {
public:
    /// `links`: keep each span's correlation id (Timeline::links), which replay needs.
    TraceBuilder(Timeline& timeline, JsonStream& stream, bool links)
        : timeline_(timeline), stream_(stream), links_(links) {}

    /// For the first part of a split trace: `found(origin)` is called once, with the origin.
    void report_origin(std::function<void(std::int64_t)> found) { origin_found_ = std::move(found); }
    /// For the second part: the origin comes from the first part (or is this part's own).
    void take_origin(SharedOrigin origin) { origin_from_ = std::move(origin); }

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
        // Kineto marks where the profiler stopped recording with an instant.
        if (f.ph == 'i' && f.name == "Record Window End") {
            Timestamp end;
            if (parse_timestamp(f.ts, end)) note_record_end(end);
            return;
        }
        // Metadata, instants, counters; flows too, unless replay needs Kineto's ac2g flows.
        const bool flow = links_ && (f.ph == 's' || f.ph == 'f') && f.cat == "ac2g";
        if (f.ph != 'X' && f.ph != 'B' && f.ph != 'E' && !flow) return;
        Timestamp ts;
        if (flow && !parse_timestamp(f.ts, ts)) return;  // a flow it cannot place links nothing
        if (!parse_timestamp(f.ts, ts)) {
            double number = 0;
            const bool big = parse_duration(f.ts, number);  // a number, just not one a timestamp can be
            throw Error(stream_.location(size),
                        "event '" + printable(f.name) + "' (ph " + f.ph + "): \"ts\" must be a number" +
                            (big || beyond_double(f.ts) ? " of µs within ±9.2e18 (got '" : " (got '") +
                            printable(f.ts) + "')");
        }
        if (!have_origin_) {
            std::optional<std::int64_t> earlier;
            if (origin_from_.valid()) earlier = origin_from_.get();
            origin_ = earlier.value_or(ts.whole);
            have_origin_ = true;
            if (origin_found_) origin_found_(origin_);
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
        // Events come in runs from one thread: the last track is checked first.
        if (f.pid != last_pid_ || f.tid != last_tid_ || !have_track_) {
            last_track_ = timeline_.track(track_key(f.pid, f.tid), f.pid, f.tid);
            last_pid_.assign(f.pid);
            last_tid_.assign(f.tid);
            have_track_ = true;
        }
        const std::uint32_t track = last_track_;
        if (flow) {
            if (const auto id = whole_number<std::uint64_t>(f.id)) flows_.push_back({start, *id, track, f.ph == 's'});
            return;
        }
        if (f.ph == 'X') {
            double duration = 0;
            // Without "dur", the thread time stands in for the wall time (as speedscope reads it);
            // it is shorter whenever the thread waited, so a note counts such events.
            const std::string_view token = !f.dur.empty() ? f.dur : f.tdur;
            if (f.dur.empty() && !f.tdur.empty()) ++thread_time_only_;
            // Not zero: a viewer shows a complete event without its duration as never finished.
            if (token.empty()) {
                throw Error(stream_.location(size), "event '" + printable(f.name) +
                                                        "': an \"X\" (complete) event has no \"dur\" (give its "
                                                        "duration in us; \"dur\": 0 for an event that takes no time)");
            }
            if (!parse_duration(token, duration) || duration < 0) {
                throw Error(stream_.location(size),
                            "event '" + printable(f.name) + "': " + (f.dur.empty() ? "\"tdur\"" : "\"dur\"") +
                                " must be a number >= 0" +
                                (beyond_double(token) ? " small enough to compute with (got '" : " (got '") +
                                printable(token) + "')");
            }
            add_span(start, start + duration, name, category, track, links_ ? correlation_of(f.args) : 0);
            if (links_ && timeline_.spans.back().cls == SpanClass::sync_marker) {
                timeline_.sync_markers.push_back(
                    sync_marker_of(f.args, static_cast<std::uint32_t>(timeline_.spans.size() - 1)));
            }
            return;
        }
        const JsonStream::Position at = stream_.position(size);
        marks_.push_back(
            {start, name, category, track, f.ph == 'B', at.line, at.column, links_ ? correlation_of(f.args) : 0});
    }

public:
    // Pairs the B/E events (see pair_begin_end); a B never closed runs to the last instant any
    // event reaches.
    void finish() {
        double trace_end = last_end_;
        for (const Mark& m : marks_) trace_end = std::max(trace_end, m.time);
        const Pairing pairing = pair_begin_end(marks_, trace_end, timeline_, stream_.source());
        for (const PairedSpan& s : pairing.spans) add_span(s.start, s.end, s.name, s.category, s.track, s.link);
        unclosed_ = pairing.unclosed;
        cut_at_record_end();
        if (links_) link_flows();
    }

    // Takes over what `part` read (the events that follow this builder's), as if this builder
    // had read them: the same ids, spans and marks; `at` is where the part starts in the text.
    void append(const TraceBuilder& part, JsonStream::Position at) {
        const Timeline& other = part.timeline_;
        std::vector<std::uint32_t> string_id(other.string_count()), track_id(other.track_count());
        for (std::uint32_t i = 0; i < string_id.size(); ++i) string_id[i] = timeline_.intern(other.text(i));
        for (std::uint32_t i = 0; i < track_id.size(); ++i) {
            const Timeline::TrackInfo& info = other.track_info(i);
            track_id[i] = timeline_.track(track_key(info.pid, info.tid), info.pid, info.tid);
        }
        timeline_.spans.reserve(timeline_.spans.size() + other.spans.size());
        for (Span span : other.spans) {
            span.name = string_id[span.name];
            span.category = string_id[span.category];
            span.track = track_id[span.track];
            timeline_.spans.push_back(span);
        }
        const auto offset = static_cast<std::uint32_t>(timeline_.spans.size() - other.spans.size());
        timeline_.links.insert(timeline_.links.end(), other.links.begin(), other.links.end());
        for (SyncMarker marker : other.sync_markers) {
            marker.span += offset;
            timeline_.sync_markers.push_back(marker);
        }
        for (Flow flow : part.flows_) {
            flow.track = track_id[flow.track];
            flows_.push_back(flow);
        }
        for (Mark mark : part.marks_) {
            mark.name = string_id[mark.name];
            mark.category = string_id[mark.category];
            mark.track = track_id[mark.track];
            if (mark.line == 1) mark.column += at.column - 1;
            mark.line += at.line - 1;
            marks_.push_back(mark);
        }
        events_ += part.events_;
        thread_time_only_ += part.thread_time_only_;
        last_end_ = std::max(last_end_, part.last_end_);
        if (part.record_end_) note_record_end(*part.record_end_);
    }

public:
    std::size_t events() const { return events_; }
    std::size_t unclosed() const { return unclosed_; }
    /// "X" events that give only "tdur" (thread time), which stands in for their duration.
    std::size_t thread_time_only() const { return thread_time_only_; }
    /// When events ran past Kineto's 'Record Window End': what was cut, in words; else "".
    const std::string& cut_note() const { return cut_note_; }

private:
    void note_record_end(const Timestamp& end) {
        if (!record_end_ || end.whole < record_end_->whole ||
            (end.whole == record_end_->whole && end.fraction < record_end_->fraction))
            record_end_ = end;
    }

    // Nothing after the record window's end was recorded: an event still open then (a step whose
    // record_function closed long after the profiler stopped) is cut there, or its unrecorded
    // time would count as idle, or as the step.
    void cut_at_record_end() {
        if (!record_end_ || !have_origin_) return;
        const bool too_far = origin_ < 0 ? record_end_->whole > std::numeric_limits<std::int64_t>::max() + origin_
                                         : record_end_->whole < std::numeric_limits<std::int64_t>::min() + origin_;
        if (too_far) return;
        const double end = static_cast<double>(record_end_->whole - origin_) + record_end_->fraction;
        std::size_t cut = 0;
        std::string example;
        for (Span& s : timeline_.spans) {
            if (!(s.start < end && s.end > end)) continue;
            if (cut++ == 0) {
                example =
                    fmt::format("'{}' ({} long, {} of it recorded)", printable(timeline_.text(s.name)),
                                format_duration(s.end - s.start, Unit::us), format_duration(end - s.start, Unit::us));
            }
            s.end = end;
        }
        if (cut == 0) return;
        cut_note_ = fmt::format(
            "{} ran past the end of the recording (Kineto's 'Record Window End' at {}): nothing "
            "after it was recorded, so {} cut there: {}{}",
            cut == 1 ? std::string("1 event") : fmt::format("{} events", cut), format_duration(end, Unit::us),
            cut == 1 ? "it is" : "they are", example, cut == 1 ? "" : ", ...");
    }

private:
    // Kineto's ac2g flows link a runtime call (the flow's start, "s") to the GPU work it launched
    // (its end, "f"), each at the event's start on its track. They give a link to the pairs the
    // trace left without a correlation id; such links have the top bit set, apart from the ids.
    void link_flows() {
        if (flows_.empty()) return;
        struct Key {
            std::uint32_t track;
            double time;
            bool operator==(const Key&) const = default;
        };
        struct KeyHash {
            std::size_t operator()(const Key& k) const { return std::hash<double>{}(k.time) * 31 + k.track; }
        };
        std::unordered_map<Key, std::uint32_t, KeyHash> calls, work;  // unlinked spans by where they start
        for (std::uint32_t i = 0; i < timeline_.spans.size(); ++i) {
            const Span& s = timeline_.spans[i];
            if (timeline_.links[i] != 0) continue;
            const bool gpu = s.cls == SpanClass::kernel || s.cls == SpanClass::memcpy || s.cls == SpanClass::memset;
            if (s.cls == SpanClass::runtime) calls.try_emplace(Key{s.track, s.start}, i);
            if (gpu) work.try_emplace(Key{s.track, s.start}, i);
        }
        // An id that several flow starts share (a trace merged from several processes) links nothing:
        // which call launched the work is unknown.
        constexpr std::uint32_t shared = UINT32_MAX;
        std::unordered_map<std::uint64_t, std::uint32_t> call_of_flow;
        for (const Flow& flow : flows_) {
            if (!flow.start) continue;
            const auto found = calls.find(Key{flow.track, flow.time});
            const auto [it, fresh] = call_of_flow.try_emplace(flow.id, found != calls.end() ? found->second : shared);
            if (!fresh && it->second != shared) {
                it->second = shared;
                ++timeline_.shared_flow_ids;
            }
        }
        std::unordered_map<std::uint64_t, std::uint32_t> ends;  // flow ends per id: one only links
        for (const Flow& flow : flows_)
            if (!flow.start) ++ends[flow.id];
        constexpr std::uint64_t flow_bit = std::uint64_t{1} << 63;
        for (const Flow& flow : flows_) {
            if (flow.start) continue;
            const auto call = call_of_flow.find(flow.id);
            const auto found = work.find(Key{flow.track, flow.time});
            if (call == call_of_flow.end() || call->second == shared || found == work.end() ||
                timeline_.links[found->second] != 0)
                continue;
            if (ends[flow.id] > 1) {
                if (ends[flow.id] != UINT32_MAX) ++timeline_.shared_flow_ids;
                ends[flow.id] = UINT32_MAX;  // counted once
                continue;
            }
            timeline_.links[call->second] = timeline_.links[found->second] = flow.id | flow_bit;
        }
    }

    std::uint32_t intern(std::string_view body, bool escaped) {
        if (!escaped) return timeline_.intern(body);
        try {
            unescape_json(body, scratch_);
        } catch (const std::invalid_argument& e) {
            throw Error(stream_.location(), std::string("bad string in an event: ") + e.what());
        }
        return timeline_.intern(scratch_);
    }

    void add_span(double start, double end, std::uint32_t name, std::uint32_t category, std::uint32_t track,
                  std::uint64_t link = 0) {
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
        if (links_) timeline_.links.push_back(link);
        last_end_ = std::max(last_end_, end);
    }

    Timeline& timeline_;
    JsonStream& stream_;
    bool links_ = false;
    std::vector<Mark> marks_;
    struct Flow {
        double time;
        std::uint64_t id;
        std::uint32_t track;
        bool start;  // "s": at the launching call; else "f": at the GPU work
    };
    std::vector<Flow> flows_;
    // A track's key: the (pid, tid) pair as one text, made in one place for both parts of a split.
    const std::string& track_key(std::string_view pid, std::string_view tid) {
        return key_.assign(pid).append("/").append(tid);
    }

    std::string key_, scratch_;
    std::string last_pid_, last_tid_;  // the last event's track, and its id
    std::uint32_t last_track_ = 0;
    bool have_track_ = false;
    std::vector<int> classes_;  // SpanClass per category id, -1 until seen
    std::int64_t origin_ = 0;
    bool have_origin_ = false;
    std::function<void(std::int64_t)> origin_found_;
    SharedOrigin origin_from_;
    double last_end_ = 0;                  // of the spans so far
    std::optional<Timestamp> record_end_;  // Kineto's 'Record Window End', the earliest if several
    std::string cut_note_;
    std::size_t events_ = 0, unclosed_ = 0, thread_time_only_ = 0;
};

// A second part of the trace read by another thread: it starts at the byte offset `at`, where an
// event is expected to start.
struct Handover {
    std::uint64_t at = 0;
    std::atomic<bool> abandoned{false};  // `at` is no event of the events array: the part is void
};

struct Cancelled {};

// Reads the events array at the cursor ('[' already consumed) up to its ']' or the end of the
// input. A missing closing bracket and a trailing comma are allowed: traces written by a process
// that died end that way. With `handover`, stops at the event that starts at its offset and
// returns true; an event past the offset, or the array's end before it, abandons the handover.
bool read_events(JsonStream& stream, TraceBuilder& builder, Handover* handover = nullptr,
                 const std::atomic<bool>* cancel = nullptr) {
    const auto abandon = [&] {
        if (handover) handover->abandoned = true;
        handover = nullptr;
    };
    for (;;) {
        const char c = stream.peek();
        if (c == '\0' || c == ']') {
            abandon();
            return false;
        }
        if (c == ',') {
            stream.skip(1);
            continue;
        }
        if (c != '{') throw Error(stream.location(), std::string("expected a trace event object, got '") + c + "'");
        if (handover && stream.offset() >= handover->at) {
            if (stream.offset() == handover->at) return true;
            abandon();
        }
        if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled{};
        builder.add_next();
    }
}

// After the trace, only white space: text there is another document or a damaged file.
void expect_end(JsonStream& stream) {
    if (stream.peek() != '\0') throw Error(stream.location(), "unexpected text after the trace");
}

// The members of the top-level object from the cursor on; `found`: the events array was read.
// Returns true when read_events stopped at the handover.
bool read_members(JsonStream& stream, TraceBuilder& builder, bool found, Handover* handover) {
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
            expect_end(stream);
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
            if (read_events(stream, builder, handover)) return true;
            handover = nullptr;
            if (stream.peek() == ']') stream.skip(1);
            found = true;
        } else {
            stream.read_value("the value of \"" + key + "\"");
        }
    }
    if (handover) handover->abandoned = true;
    if (!found) throw Error(stream.source(), "no \"traceEvents\" array in the trace");
    return false;
}

// What the document is: a bare array of events, or an object with a "traceEvents" member.
enum class Form : std::uint8_t { array, object };

Form form_of(JsonStream& stream) {
    const char first = stream.peek();
    if (first == '[') return Form::array;
    if (first == '{') return Form::object;
    throw Error(stream.location(), "not a Chrome trace (expected '{' or '[')");
}

// The whole document; true when it stopped at the handover.
bool read_document(JsonStream& stream, TraceBuilder& builder, Form form, Handover* handover) {
    stream.skip(1);
    if (form == Form::object) return read_members(stream, builder, false, handover);
    if (read_events(stream, builder, handover)) return true;
    if (stream.peek() == ']') {
        stream.skip(1);
        expect_end(stream);
    }
    return false;
}

// From an event of the events array to the end of the document.
void read_rest(JsonStream& stream, TraceBuilder& builder, Form form, const std::atomic<bool>* cancel = nullptr) {
    read_events(stream, builder, nullptr, cancel);
    if (stream.peek() == ']') {
        stream.skip(1);
        if (form == Form::array) expect_end(stream);
    }
    if (form == Form::object) read_members(stream, builder, true, nullptr);
}

// Where a second part could start: the first object in the 4 MiB after the middle of the input
// that follows '}' and ',' and reads as a trace event (it has a "ph"). A guess: objects in an
// event's "args" can look so too; the first part confirms it by reaching exactly that offset
// between two events.
std::optional<std::uint64_t> middle_event(const TraceSplit& split) {
    const std::uint64_t from = split.size / 2;
    const auto in = split.open_at(from);
    if (!in) return std::nullopt;
    std::string text(static_cast<std::size_t>(std::min<std::uint64_t>(std::uint64_t{4} << 20, split.size - from)),
                     '\0');
    in->read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in->gcount()));
    const auto space = [&](std::size_t i) { return i < text.size() && is_space(text[i]); };
    for (std::size_t i = text.find('}'); i != std::string::npos; i = text.find('}', i + 1)) {
        std::size_t j = i + 1;
        while (space(j)) ++j;
        if (j >= text.size() || text[j] != ',') continue;
        ++j;
        while (space(j)) ++j;
        if (j >= text.size() || text[j] != '{') continue;
        EventFields fields;
        try {
            parse_event(std::string_view(text).substr(j), fields);
        } catch (const std::invalid_argument&) {  // no JSON object there
            continue;
        } catch (const JsonStream::NeedMore&) {  // one that runs past what was read
            continue;
        }
        if (fields.ph != 0) return from + j;
    }
    return std::nullopt;
}

// The second part of a split trace, read on its own thread into its own timeline.
class SecondPart {
public:
    SecondPart(const TraceSplit& split, std::uint64_t at, const std::string& source, Form form, SharedOrigin origin,
               bool links)
        : in_(split.open_at(at)), stream_("", in_.get(), source), builder_(timeline_, stream_, links) {
        handover.at = at;
        builder_.take_origin(std::move(origin));
        thread_ = std::thread([this, form] {
            try {
                if (!in_) throw Cancelled{};
                read_rest(stream_, builder_, form, &handover.abandoned);
            } catch (...) {
                failed_ = true;  // the first part reads on from the handover and meets it itself
            }
        });
    }
    SecondPart(const SecondPart&) = delete;
    SecondPart& operator=(const SecondPart&) = delete;
    ~SecondPart() { finish(); }

    /// Waits for the part; true when it read to the end of the trace.
    bool finish() {
        if (thread_.joinable()) thread_.join();
        return !failed_;
    }
    const TraceBuilder& builder() const { return builder_; }

    Handover handover;

private:
    std::unique_ptr<std::istream> in_;
    JsonStream stream_;
    Timeline timeline_;
    TraceBuilder builder_;
    bool failed_ = false;
    std::thread thread_;
};

}  // namespace

Profile read_chrome_trace(std::string_view prefix, std::istream* in, const std::string& source,
                          const ImportOptions& options, const TraceSplit* split) {
    JsonStream stream(prefix, in, source);
    Timeline timeline;
    timeline.unit = Unit::us;
    TraceBuilder builder(timeline, stream, options.dependencies);
    const Form form = form_of(stream);

    // A large input is read from both ends of a guessed event boundary at once: this thread up to
    // it, a second from it on. Only when this thread reaches the boundary exactly between two
    // events of the array, and the second part read to the end without an error, does its part
    // count; otherwise this thread reads on alone, and meets any error itself.
    std::promise<std::optional<std::int64_t>> origin;
    bool origin_told = false;
    const auto tell_origin = [&](std::optional<std::int64_t> value) {
        if (!origin_told) origin.set_value(value);
        origin_told = true;
    };
    std::unique_ptr<SecondPart> second;
    if (split && split->open_at && split->size >= split->min_size) {
        if (const auto at = middle_event(*split)) {
            second = std::make_unique<SecondPart>(*split, *at, source, form, origin.get_future().share(),
                                                  options.dependencies);
            builder.report_origin([&](std::int64_t value) { tell_origin(value); });
        }
    }
    struct Release {  // however this thread leaves, the second part stops waiting and ends
        const std::function<void()> run;
        ~Release() { run(); }
    } release{[&] {
        if (!second) return;
        second->handover.abandoned = true;
        tell_origin(std::nullopt);
        second->finish();
    }};

    if (read_document(stream, builder, form, second ? &second->handover : nullptr)) {
        tell_origin(std::nullopt);
        if (second->finish()) {
            builder.append(second->builder(), stream.position());
            if (split->used_at) *split->used_at = stream.offset();
        } else {
            read_rest(stream, builder, form);
        }
    }
    // A second part still waiting for the origin (this part had no timed event) hears there is
    // none here, sees the handover abandoned, and ends: only then can it be joined.
    tell_origin(std::nullopt);
    second.reset();
    builder.finish();
    Profile profile = sweep_with_dependencies(timeline, options, source, "chrome-trace");
    profile.notes.insert(profile.notes.begin(), source + ": " + std::to_string(builder.events()) + " trace events, " +
                                                    std::to_string(timeline.spans.size()) + " with a duration");
    if (!builder.cut_note().empty()) profile.notes.push_back(source + ": " + builder.cut_note());
    if (builder.unclosed() > 0) {
        profile.notes.push_back(source + ": " + std::to_string(builder.unclosed()) +
                                " \"B\" events never closed; they run to the end of the trace");
    }
    if (const std::size_t n = builder.thread_time_only(); n > 0) {
        profile.notes.push_back(
            source + ": " + std::to_string(n) + (n == 1 ? " \"X\" event has" : " \"X\" events have") +
            " no \"dur\", only \"tdur\" (thread time): where " + (n == 1 ? "it counts, its" : "they count, their") +
            " thread time stands in for " + (n == 1 ? "its" : "their") +
            " duration, and the wall time is longer if the thread waited");
    }
    return profile;
}

}  // namespace amdahl::detail
