// The JSON profile reader's fast path: a profile in plain JSON (a "phases" array of flat objects,
// as amdahl import and most tools write it) read straight from the text. A million phases take a
// fraction of what parser events and values cost. Names may hold escapes and UTF-8, which
// amdahl import writes for names such as "Host→device copy" or a byte the terminal would hide.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "amdahl/error.hpp"
#include "input/json_fields.hpp"
#include "input/json_scan.hpp"
#include "input/raw_profile.hpp"

namespace amdahl::detail {

namespace {

// A time as plain JSON: a number or a plain string ("21 ms"); none when anything is off.
std::optional<RawTime> plain_time(JsonScan& scan) {
    double value = 0;
    // + 0.0 turns -0 into 0, as the full reader does.
    if (scan.number(value)) return value >= 0 ? std::optional(RawTime{value + 0.0, std::nullopt}) : std::nullopt;
    std::string_view text;
    if (!scan.string(text)) return std::nullopt;
    try {
        return parse_time_text(text, std::string(), "time");
    } catch (const Error&) {
        return std::nullopt;
    }
}

// A phase object in plain JSON; false when it is anything else.
bool plain_phase(JsonScan& scan, std::size_t index, RawProfile& out) {
    if (!scan.eat('{')) return false;
    RawPhase phase;
    phase.at = index + 1;
    bool named = false;
    unsigned seen = 0;  // the fields read so far: one bit each; a second one is the full reader's to report
    const auto first_time = [&seen](std::string_view key) {
        constexpr std::string_view known[] = {"name", "kind", "time", "active_time", "share", "calls", "segment"};
        for (unsigned bit = 0; bit < std::size(known); ++bit) {
            if (key != known[bit]) continue;
            if (seen & (1u << bit)) return false;
            seen |= 1u << bit;
        }
        return true;
    };
    if (!scan.eat('}')) {
        do {
            std::string_view key, text;
            if (!scan.string(key) || !scan.eat(':') || !first_time(key)) return false;
            if (key == "name" || key == "kind" || key == "segment") {
                if (!scan.string(key == "name" ? phase.name : key == "kind" ? phase.kind : phase.segment)) return false;
                named = named || key == "name";
            } else if (key == "time" || key == "active_time") {
                auto time = plain_time(scan);
                if (!time) return false;
                (key == "time" ? phase.time : phase.active_time) = time;
            } else if (key == "share") {
                double share = 0;
                if (!scan.number(share) || share < 0 || share > 1) return false;
                phase.share = share + 0.0;
            } else if (key == "calls") {
                double calls = 0;
                if (!scan.number(calls) || calls < 0 || calls != std::floor(calls) || calls > 9.0e15) return false;
                phase.calls = static_cast<std::uint64_t>(calls);
            } else if (!key.starts_with('_') || !scan.skip_value(text) || !Json::accept(text)) {
                return false;  // renamed_from, time_sd and keys amdahl does not read: the full reader's
            }
        } while (scan.eat(','));
        if (!scan.eat('}')) return false;
    }
    if (!named || (!phase.time && !phase.share)) return false;
    out.add(std::move(phase));
    return true;
}

// "overlaps": [{"phases": [names], "time": T}] as amdahl import writes them, T a number >= 0: the
// profile of a trace holds thousands. False for anything else (another key, a key twice, a time as
// text), which the full reader reads or reports.
bool plain_overlaps(JsonScan& scan, RawProfile& out) {
    if (!scan.eat('[')) return false;
    if (scan.eat(']')) return true;
    do {
        if (!scan.eat('{')) return false;
        Overlap overlap;
        bool phases = false, time = false;
        do {
            std::string_view key;
            if (!scan.string(key) || !scan.eat(':')) return false;
            if (key == "phases" && !phases) {
                phases = true;
                if (!scan.eat('[')) return false;
                if (!scan.eat(']')) {
                    do {
                        if (!scan.string(overlap.phases.emplace_back())) return false;
                    } while (scan.eat(','));
                    if (!scan.eat(']')) return false;
                }
            } else if (key == "time" && !time) {
                time = true;
                if (!scan.number(overlap.time) || overlap.time < 0) return false;
                overlap.time += 0.0;  // -0 is 0, as the full reader has it
            } else {
                return false;
            }
        } while (scan.eat(','));
        if (!scan.eat('}') || !phases || !time) return false;
        out.overlaps.push_back(std::move(overlap));
    } while (scan.eat(','));
    return scan.eat(']');
}

// "notes": what amdahl import found, an array of strings the reader does not keep. Checked as
// well formed; false for anything else.
bool plain_notes(JsonScan& scan) {
    if (!scan.eat('[')) return false;
    if (scan.eat(']')) return true;
    std::string note;
    do {
        if (!scan.string(note)) return false;
    } while (scan.eat(','));
    return scan.eat(']');
}

// The fast path for a profile in plain JSON with a "phases" array (what amdahl import and most
// tools write): read straight from the text, no parser events, no values built per phase. It
// gives up on anything else, and on every error, leaving those to the full reader, which then
// reads the same profile or says precisely what is wrong.
}  // namespace

std::optional<RawProfile> read_plain_json_profile(std::string_view content, const std::string& source) {
    JsonScan scan(content);
    RawProfile out;
    out.source = source;
    out.origin = Origin::json_index;
    const auto phase_array = [&] {
        if (!scan.eat('[')) return false;
        if (scan.eat(']')) return true;
        std::size_t index = 0;
        do {
            if (!plain_phase(scan, index++, out)) return false;
        } while (scan.eat(','));
        return scan.eat(']');
    };
    const auto commas = static_cast<std::size_t>(std::count(content.begin(), content.end(), ','));
    out.reserve(std::min(commas + 1, content.size() / 6 + 1));
    if (scan.peek() == '[') {
        if (!phase_array() || !scan.at_end()) return std::nullopt;
        return out;
    }
    Json fields = Json::object();
    bool saw_phases = false, saw_overlaps = false, saw_notes = false;
    if (!scan.eat('{')) return std::nullopt;
    if (!scan.eat('}')) {
        do {
            std::string_view key, text;
            if (!scan.string(key) || !scan.eat(':')) return std::nullopt;
            if (key == "phases") {
                if (saw_phases || !phase_array()) return std::nullopt;
                saw_phases = true;
                continue;
            }
            // The two fields that can be large in an imported trace, read without building values.
            if (key == "overlaps" || key == "notes") {
                bool& saw = key == "overlaps" ? saw_overlaps : saw_notes;
                if (saw || !(key == "overlaps" ? plain_overlaps(scan, out) : plain_notes(scan))) return std::nullopt;
                saw = true;
                continue;
            }
            if (!scan.skip_value(text) || fields.contains(key)) return std::nullopt;
            // A key given twice inside a field is the full reader's to report, in document order.
            std::vector<std::unordered_set<std::string>> open;
            bool twice = false;
            Json value = Json::parse(
                text,
                [&](int, Json::parse_event_t event, Json& parsed) {
                    if (event == Json::parse_event_t::object_start)
                        open.emplace_back();
                    else if (event == Json::parse_event_t::object_end)
                        open.pop_back();
                    else if (event == Json::parse_event_t::key && !open.back().insert(parsed.get<std::string>()).second)
                        twice = true;
                    return true;
                },
                false);
            if (value.is_discarded() || twice) return std::nullopt;
            fields[std::string(key)] = std::move(value);
        } while (scan.eat(','));
        if (!scan.eat('}')) return std::nullopt;
    }
    if (!saw_phases || !scan.at_end()) return std::nullopt;
    read_fields(fields, source, out);
    return out;
}

}  // namespace amdahl::detail
