// A JSON profile's "timeline" (written by `amdahl import --keep-timeline`, src/report/
// profile_json.cpp): a trace's replay graph, read back so that `--model replay` of the profile
// replays what replaying the trace did. Every index is checked against what it indexes, every
// time is finite, each event ends no earlier than it starts, and the graph must replay with
// factor 1 (no cycle, no edge asking for more delay than the events leave): errors name the JSON
// path of the value.
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "analysis/replay.hpp"
#include "input/json_errors.hpp"
#include "input/json_timeline.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

namespace {

std::string span_text(double start, double end) { return "[" + shortest(start) + ", " + shortest(end) + "]"; }

class TimelineReader {
public:
    TimelineReader(const Json& timeline, const std::string& source) : doc_(timeline), source_(source) {}

    std::shared_ptr<const Dependencies> read() {
        if (!doc_.is_object()) fail("timeline", "expected an object (got " + describe(doc_) + ")");
        auto deps = std::make_shared<Dependencies>();
        const std::string unit = text(member("unit"), "timeline.unit");
        const auto parsed = parse_unit(unit);
        if (!parsed) fail("timeline.unit", "unknown unit '" + printable(unit) + "' (expected ns, us, ms, s, min or h)");
        deps->unit = *parsed;
        const Json& phases = array(member("phases"), "timeline.phases");
        for (std::size_t i = 0; i < phases.size(); ++i)
            deps->phase_names.push_back(text(phases[i], "timeline.phases[" + std::to_string(i) + "]"));
        const Json& labels = array(member("labels"), "timeline.labels");
        for (std::size_t i = 0; i < labels.size(); ++i) {
            const std::string path = "timeline.labels[" + std::to_string(i) + "]";
            const Json& label = labels[i];
            if (!label.is_object() || !label.contains("name") || !label.contains("phase") ||
                !label["phase"].is_boolean())
                fail(path, "expected {\"name\": N, \"phase\": true or false} (got " + describe(label) + ")");
            deps->labels.push_back({text(label["name"], path + ".name"), label["phase"].get<bool>()});
        }
        const Json& events = array(member("events"), "timeline.events");
        if (events.size() >= std::numeric_limits<std::uint32_t>::max()) fail("timeline.events", "too many events");
        const std::uint64_t n = events.size();
        deps->graph.events.reserve(events.size());
        deps->label.reserve(events.size());
        for (std::size_t i = 0; i < events.size(); ++i) {
            const std::string path = "timeline.events[" + std::to_string(i) + "]";
            const Json& e = tuple(events[i], path, 5, "[start, end, phase, label, released]");
            ReplayEvent event;
            event.start = number(e[0], path + "[0]");
            event.end = number(e[1], path + "[1]");
            if (event.end < event.start) fail(path, "ends before it starts");
            const long long phase = whole(e[2], path + "[2]", -1, static_cast<long long>(phases.size()) - 1);
            event.phase = phase < 0 ? no_phase : static_cast<std::uint32_t>(phase);
            deps->label.push_back(
                static_cast<std::uint32_t>(whole(e[3], path + "[3]", 0, static_cast<long long>(labels.size()) - 1)));
            event.released = whole(e[4], path + "[4]", 0, 1) == 1;
            deps->graph.events.push_back(event);
        }
        deps->first_gpu_event = static_cast<std::uint32_t>(
            whole(member("first_gpu_event"), "timeline.first_gpu_event", 0, static_cast<long long>(n)));
        const long long last = static_cast<long long>(n) - 1;
        // Optional (files of amdahl 0.1.0 before it lack it): the tracks, each a range of events.
        if (const auto tracks = doc_.find("tracks"); tracks != doc_.end()) {
            array(*tracks, "timeline.tracks");
            for (std::size_t i = 0; i < tracks->size(); ++i) {
                const std::string path = "timeline.tracks[" + std::to_string(i) + "]";
                const Json& track = (*tracks)[i];
                if (!track.is_object() || !track.contains("name") || !track.contains("first_event"))
                    fail(path, "expected {\"name\": N, \"first_event\": I} (got " + describe(track) + ")");
                const long long first = whole(track["first_event"], path + ".first_event", 0, last);
                if (!deps->tracks.empty() && first <= static_cast<long long>(deps->tracks.back().first_event))
                    fail(path + ".first_event", "must be after the previous track's");
                deps->tracks.push_back({text(track["name"], path + ".name"), static_cast<std::uint32_t>(first)});
            }
        }
        const Json& edges = array(member("edges"), "timeline.edges");
        for (std::size_t i = 0; i < edges.size(); ++i) {
            const std::string path = "timeline.edges[" + std::to_string(i) + "]";
            const Json& e = tuple(edges[i], path, 4, "[from, to, delay, from_start]");
            ReplayEdge edge;
            edge.from = static_cast<std::uint32_t>(whole(e[0], path + "[0]", 0, last));
            edge.to = static_cast<std::uint32_t>(whole(e[1], path + "[1]", 0, last));
            if (edge.from == edge.to) fail(path, "an edge from an event to itself");
            edge.delay = number(e[2], path + "[2]");
            if (edge.delay < 0) fail(path + "[2]", "a delay must be >= 0");
            edge.from_start = whole(e[3], path + "[3]", 0, 1) == 1;
            deps->graph.edges.push_back(edge);
        }
        const Json& waits = array(member("waits"), "timeline.waits");
        for (std::size_t i = 0; i < waits.size(); ++i) {
            const std::string path = "timeline.waits[" + std::to_string(i) + "]";
            const Json& w = tuple(waits[i], path, 2, "[call, awaited]");
            ReplayWait wait;
            wait.call = static_cast<std::uint32_t>(whole(w[0], path + "[0]", 0, last));
            wait.awaited = static_cast<std::uint32_t>(whole(w[1], path + "[1]", 0, last));
            if (wait.call == wait.awaited) fail(path, "a call that waits for itself");
            deps->graph.waits.push_back(wait);
        }
        const Json& steps = array(member("steps"), "timeline.steps");
        for (std::size_t i = 0; i < steps.size(); ++i) deps->steps.push_back(step(steps[i], i, last));
        const Json& sources = array(member("sources"), "timeline.sources");
        for (std::size_t i = 0; i < sources.size(); ++i)
            deps->sources.push_back(text(sources[i], "timeline.sources[" + std::to_string(i) + "]"));
        deps->has_events.assign(deps->phase_names.size(), false);
        for (const ReplayEvent& event : deps->graph.events)
            if (event.phase != no_phase) deps->has_events[event.phase] = true;
        // The graph must replay as recorded: no cycle, no edge asking for more than its gap.
        try {
            deps->prepared = std::make_shared<const PreparedReplay>(prepare_replay(deps->graph));
        } catch (const Error& e) {
            fail("timeline", "is no graph a trace gives: " + e.message());
        }
        return deps;
    }

private:
    [[noreturn]] void fail(const std::string& path, const std::string& message) const {
        throw Error(source_ + ": " + path, message);
    }
    const Json& member(const char* key) const {
        const auto found = doc_.find(key);
        if (found == doc_.end()) fail("timeline", std::string("has no \"") + key + "\"");
        return *found;
    }
    const Json& array(const Json& value, const std::string& path) const {
        if (!value.is_array()) fail(path, "expected an array (got " + describe(value) + ")");
        return value;
    }
    const Json& tuple(const Json& value, const std::string& path, std::size_t size, const char* form) const {
        if (!value.is_array() || value.size() != size)
            fail(path, std::string("expected ") + form + " (got " + describe(value) + ")");
        return value;
    }
    std::string text(const Json& value, const std::string& path) const {
        if (!value.is_string()) fail(path, "expected a string (got " + describe(value) + ")");
        return value.get<std::string>();
    }
    double number(const Json& value, const std::string& path) const {
        if (!value.is_number() || !std::isfinite(value.get<double>()))
            fail(path, "expected a finite number (got " + describe(value) + ")");
        return value.get<double>();
    }
    long long whole(const Json& value, const std::string& path, long long low, long long high) const {
        if (!value.is_number_integer() || value.get<long long>() < low || value.get<long long>() > high) {
            fail(path, high < low ? "expected an index, but there is nothing to index"
                                  : "expected a whole number from " + std::to_string(low) + " to " +
                                        std::to_string(high) + " (got " + describe(value) + ")");
        }
        return value.get<long long>();
    }
    Dependencies::Step step(const Json& value, std::size_t i, long long last) const {
        const std::string path = "timeline.steps[" + std::to_string(i) + "]";
        if (!value.is_object() || !value.contains("name") || !value.contains("cpu") || !value.contains("gpu"))
            fail(path, "expected {\"name\": N, \"cpu\": {...} or null, \"gpu\": {...} or null} (got " +
                           describe(value) + ")");
        Dependencies::Step out;
        out.name = text(value["name"], path + ".name");
        // Optional (timelines written before them lack them): [[start, end], ...] at `at`.`key`;
        // `count`, when set, is how many there must be.
        const auto spans = [&](const Json& c, const std::string& at, const char* key,
                               std::vector<std::pair<double, double>>& into, std::optional<std::size_t> count) {
            if (!c.contains(key)) return;
            const std::string where = at + "." + key;
            const Json& list = array(c[key], where);
            if (count && list.size() != *count)
                fail(where, "expected one [start, end] per enclosed pair (" + std::to_string(*count) + "), got " +
                                std::to_string(list.size()));
            for (std::size_t k = 0; k < list.size(); ++k) {
                const std::string item = where + "[" + std::to_string(k) + "]";
                const Json& span = tuple(list[k], item, 2, "[start, end]");
                const double start = number(span[0], item + "[0]");
                const double end = number(span[1], item + "[1]");
                if (end < start) fail(item, "ends before it starts");
                into.emplace_back(start, end);
            }
        };
        const auto copy = [&](const char* key, bool& has, double& start, double& end,
                              std::vector<std::pair<std::uint32_t, std::uint32_t>>& enclosed,
                              std::vector<std::pair<double, double>>* copies,
                              std::vector<std::pair<double, double>>* still) {
            const Json& c = value[key];
            const std::string at = path + "." + key;
            if (c.is_null()) return;
            if (!c.is_object() || !c.contains("span") || !c.contains("enclosed"))
                fail(at, "expected {\"span\": [start, end], \"enclosed\": [[first, last], ...]} or null (got " +
                             describe(c) + ")");
            has = true;
            const Json& span = tuple(c["span"], at + ".span", 2, "[start, end]");
            start = number(span[0], at + ".span[0]");
            end = number(span[1], at + ".span[1]");
            if (end < start) fail(at + ".span", "ends before it starts");
            const Json& list = array(c["enclosed"], at + ".enclosed");
            for (std::size_t k = 0; k < list.size(); ++k) {
                const std::string item = at + ".enclosed[" + std::to_string(k) + "]";
                const Json& pair = tuple(list[k], item, 2, "[first, last]");
                enclosed.emplace_back(static_cast<std::uint32_t>(whole(pair[0], item + "[0]", 0, last)),
                                      static_cast<std::uint32_t>(whole(pair[1], item + "[1]", 0, last)));
            }
            for (const char* name : {"copies", "still"})
                if (!copies && c.contains(name))
                    fail(at + "." + name, "a CPU span is one thread's: only the GPU copy has streams' copies");
            if (copies) spans(c, at, "copies", *copies, list.size());  // per enclosed pair, its stream's copy
            if (still) spans(c, at, "still", *still, std::nullopt);    // the streams' copies that enclose no event
            if (!copies || copies->empty()) return;
            // The span is the hull of the streams' copies: one outside it, or a hull that falls
            // short (a timeline kept before the still copies were written), would replay a step
            // the trace never had.
            double low = INFINITY, high = -INFINITY;
            for (const auto* list_of : {copies, still}) {
                for (std::size_t k = 0; k < list_of->size(); ++k) {
                    const auto [copy_start, copy_end] = (*list_of)[k];
                    if (copy_start < start || copy_end > end)
                        fail(at + (list_of == copies ? ".copies[" : ".still[") + std::to_string(k) + "]",
                             "lies outside the step's span " + span_text(start, end));
                    low = std::min(low, copy_start);
                    high = std::max(high, copy_end);
                }
            }
            if (low != start || high != end)
                fail(at, "the streams' copies cover " + span_text(low, high) + ", not the step's span " +
                             span_text(start, end) +
                             " (a timeline kept by an amdahl before 2026-12-04 leaves out the copies that "
                             "enclose no event, \"still\": import the trace again)");
        };
        copy("cpu", out.has_cpu, out.cpu_start, out.cpu_end, out.cpu_enclosed, nullptr, nullptr);
        copy("gpu", out.has_gpu, out.gpu_start, out.gpu_end, out.gpu_enclosed, &out.gpu_copies, &out.gpu_still);
        if (!out.has_cpu && !out.has_gpu) fail(path, "has neither a CPU span nor a GPU copy");
        return out;
    }

    const Json& doc_;
    const std::string& source_;
};

}  // namespace

std::shared_ptr<const Dependencies> read_timeline(const Json& timeline, const std::string& source) {
    return TimelineReader(timeline, source).read();
}

}  // namespace amdahl::detail
