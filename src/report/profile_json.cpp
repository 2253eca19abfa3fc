// Writes a profile in amdahl's JSON profile format, the one src/input/json.cpp reads.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "amdahl/report.hpp"
#include "analysis/replay.hpp"
#include "report/numbers.hpp"
#include "report/profile_json.hpp"

namespace amdahl {

namespace {

// JSON holds UTF-8 only, so the writer shows bytes that are not UTF-8 as U+FFFD: two names that
// differ only in such bytes would read back as one name twice, a profile amdahl cannot read.
void check_names_survive_json(const Profile& profile) {
    const bool any_non_ascii = std::any_of(profile.phases.begin(), profile.phases.end(), [](const Phase& phase) {
        return std::any_of(phase.name.begin(), phase.name.end(),
                           [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
    });
    if (!any_non_ascii) return;
    std::unordered_map<std::string, const Phase*> written;
    for (const Phase& phase : profile.phases) {
        JsonWriter name;
        name.value(phase.name);
        const auto [other, fresh] = written.emplace(name.str(), &phase);
        if (!fresh) {
            throw Error(profile.where(phase),
                        "phases '" + printable(other->second->name) + "' and '" + printable(phase.name) +
                            "' differ only in bytes that are not UTF-8, which JSON cannot hold; rename one");
        }
    }
}

// "timeline": a trace's replay graph (Dependencies), compact: events and edges as arrays. Read
// back by src/input/json_timeline.cpp; docs/replay.md describes the fields.
void write_timeline(JsonWriter& json, const Dependencies& deps) {
    json.key("timeline").begin_object();
    json.field("unit", unit_name(deps.unit));
    json.key("phases").begin_array();
    for (const std::string& name : deps.phase_names) json.value(name);
    json.end_array().key("labels").begin_array();
    for (const Dependencies::Label& label : deps.labels)
        json.begin_object(true).field("name", label.name).field("phase", label.phase).end_object();
    json.end_array().field("first_gpu_event", static_cast<std::size_t>(deps.first_gpu_event));
    json.key("tracks").begin_array();
    for (const Dependencies::Track& track : deps.tracks)
        json.begin_object(true)
            .field("name", track.name)
            .field("first_event", static_cast<std::size_t>(track.first_event))
            .end_object();
    json.end_array();
    // [start, end, phase (-1: none), label, released (0 or 1)]
    json.key("events").begin_array();
    for (std::size_t i = 0; i < deps.graph.events.size(); ++i) {
        const detail::ReplayEvent& event = deps.graph.events[i];
        json.begin_array(true).value(event.start).value(event.end);
        json.value(event.phase == detail::no_phase ? -1LL : static_cast<long long>(event.phase));
        json.value(static_cast<std::size_t>(deps.label[i])).value(event.released ? 1 : 0).end_array();
    }
    // [from, to, delay, from_start (0 or 1)]
    json.end_array().key("edges").begin_array();
    for (const detail::ReplayEdge& edge : deps.graph.edges) {
        json.begin_array(true).value(static_cast<std::size_t>(edge.from)).value(static_cast<std::size_t>(edge.to));
        json.value(edge.delay).value(edge.from_start ? 1 : 0).end_array();
    }
    // [call, awaited]
    json.end_array().key("waits").begin_array();
    for (const detail::ReplayWait& wait : deps.graph.waits)
        json.begin_array(true)
            .value(static_cast<std::size_t>(wait.call))
            .value(static_cast<std::size_t>(wait.awaited))
            .end_array();
    json.end_array().key("steps").begin_array();
    for (const Dependencies::Step& step : deps.steps) {
        json.begin_object(true).field("name", step.name);
        const auto spans = [&](const char* key, const std::vector<std::pair<double, double>>& list) {
            if (list.empty()) return;
            json.key(key).begin_array(true);
            for (const auto& [start, end] : list) json.begin_array(true).value(start).value(end).end_array();
            json.end_array();
        };
        const auto copy = [&](const char* key, bool has, double start, double end,
                              const std::vector<std::pair<std::uint32_t, std::uint32_t>>& enclosed,
                              const std::vector<std::pair<double, double>>& copies,
                              const std::vector<std::pair<double, double>>& still) {
            json.key(key);
            if (!has) {
                json.null();
                return;
            }
            json.begin_object(true).key("span").begin_array(true).value(start).value(end).end_array();
            json.key("enclosed").begin_array(true);
            for (const auto& [first, last] : enclosed)
                json.begin_array(true)
                    .value(static_cast<std::size_t>(first))
                    .value(static_cast<std::size_t>(last))
                    .end_array();
            json.end_array();
            spans("copies", copies);  // per enclosed pair, its stream's copy
            spans("still", still);    // the streams' copies that enclose no event
            json.end_object();
        };
        copy("cpu", step.has_cpu, step.cpu_start, step.cpu_end, step.cpu_enclosed, {}, {});
        copy("gpu", step.has_gpu, step.gpu_start, step.gpu_end, step.gpu_enclosed, step.gpu_copies, step.gpu_still);
        json.end_object();
    }
    json.end_array().key("sources").begin_array();
    for (const std::string& line : deps.sources) json.value(line);
    json.end_array().end_object();
}

}  // namespace

void write_steps(JsonWriter& json, const Profile& profile) {
    if (profile.steps.empty()) return;
    json.key("steps").begin_array();
    for (const Step& step : profile.steps) {
        json.begin_object(true).field("name", step.name).field("start", step.start).field("time", step.time);
        json.field("used", step.dropped.empty());
        if (!step.dropped.empty()) json.field("dropped", step.dropped);
        json.end_object();
    }
    json.end_array();
}

void write_boundary(JsonWriter& json, const Profile& profile, bool with_steps) {
    if (!profile.boundary.empty()) json.field("boundary", profile.boundary);
    if (with_steps) write_steps(json, profile);
    json.field("summary_only", profile.summary_only);
}

std::string profile_to_json(const Profile& profile, bool with_timeline) {
    check_names_survive_json(profile);
    JsonWriter json;
    json.exact_numbers();  // a profile reads back bit for bit
    json.begin_object();
    // The version of this format (schemas/profile.schema.json); the readers accept 1 only.
    json.field("schema_version", 1);
    json.field("name", profile.name.empty() ? profile.source : profile.name);
    json.field("unit", unit_name(profile.unit));
    // Without a declared total the time ranges' ends move the baseline; a total written here would
    // fix it (and the high ends would not fit under it), so only a declared one is written then.
    const bool any_range = std::any_of(profile.phases.begin(), profile.phases.end(), [](const Phase& phase) {
        return phase.spread && phase.spread->low < phase.spread->high;
    });
    if (profile.total_declared || !any_range) json.field("total", profile.total());
    if (!profile.format.empty()) json.field("format", profile.format);
    if (!profile.boundary.empty()) json.field("boundary", profile.boundary);
    if (profile.summary_only) json.field("summary_only", true);
    write_steps(json, profile);
    // Former names are kept, so that compare still matches them after an import.
    std::unordered_map<std::string_view, std::vector<std::string_view>> former;
    for (const auto& [old_name, new_name] : profile.renamed_from) former[new_name].push_back(old_name);
    json.key("phases").begin_array();
    for (const Phase& phase : profile.phases) {
        json.begin_object(true).field("name", phase.name);
        // A run-to-run range as the reader takes it ("19..23", in the profile's unit; its midpoint
        // is the time), and a spread as time_sd: an import keeps what eval's bounds stand on.
        if (phase.spread && phase.spread->low < phase.spread->high)
            json.field("time", fmt::format("{}..{}", phase.spread->low, phase.spread->high));
        else
            json.field("time", phase.time);
        if (phase.spread && phase.spread->sd > 0) json.field("time_sd", phase.spread->sd);
        if (!phase.kind.empty()) json.field("kind", phase.kind);
        if (phase.calls) json.field("calls", *phase.calls);
        if (!phase.segment.empty()) json.field("segment", phase.segment);
        if (phase.active_time && *phase.active_time != phase.time) json.field("active_time", *phase.active_time);
        if (const auto names = former.find(phase.name); names != former.end()) {
            json.key("renamed_from").begin_array();
            for (const std::string_view name : names->second) json.value(name);
            json.end_array();
        }
        json.end_object();
    }
    json.end_array();
    if (!profile.proposals.empty()) {
        json.key("proposals").begin_array();
        for (const ProfileProposal& proposal : profile.proposals) {
            json.begin_object(true);
            if (!proposal.name.empty()) json.field("name", proposal.name);
            json.field("target", proposal.target).field("factor", proposal.factor);
            // An effort with its unit is written as "3 weeks", which reads back as it was given.
            if (proposal.effort && !proposal.effort_unit.empty())
                json.field("effort", shortest(*proposal.effort) + " " +
                                         (*proposal.effort == 1 ? proposal.effort_unit : plural(proposal.effort_unit)));
            else
                json.field("effort", proposal.effort);
            json.end_object();
        }
        json.end_array();
    }
    if (!profile.runs.empty()) {
        json.key("runs").begin_array(true);
        for (const double run : profile.runs) json.value(run);
        json.end_array();
    }
    if (!profile.class_members.empty()) {
        json.key("classes").begin_array();
        for (const ClassMember& member : profile.class_members)
            json.begin_object(true)
                .field("class", member.phase)
                .field("name", member.name)
                .field("rule", member.rule)
                .end_object();
        json.end_array();
    }
    if (!profile.overlaps.empty()) {
        json.key("overlaps").begin_array();
        for (const Overlap& overlap : profile.overlaps) {
            json.begin_object().key("phases").begin_array();
            for (const auto& name : overlap.phases) json.value(name);
            json.end_array().field("time", overlap.time).end_object();
        }
        json.end_array();
    }
    if (!profile.notes.empty()) {
        json.key("notes").begin_array();
        for (const auto& note : profile.notes) json.value(note);
        json.end_array();
    }
    if (with_timeline && profile.dependencies) write_timeline(json, *profile.dependencies);
    json.end_object();
    return json.str();
}

}  // namespace amdahl
