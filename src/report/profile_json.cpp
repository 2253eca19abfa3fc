// Writes a profile in amdahl's JSON profile format, the one src/input/json.cpp reads.
#include <algorithm>
#include <unordered_map>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "amdahl/report.hpp"
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

std::string profile_to_json(const Profile& profile) {
    check_names_survive_json(profile);
    JsonWriter json;
    json.exact_numbers();  // a profile reads back bit for bit
    json.begin_object();
    // The version of this format (schemas/profile.schema.json); the readers accept 1 only.
    json.field("schema_version", 1);
    json.field("name", profile.name.empty() ? profile.source : profile.name);
    json.field("unit", unit_name(profile.unit));
    json.field("total", profile.total());
    if (!profile.format.empty()) json.field("format", profile.format);
    if (!profile.boundary.empty()) json.field("boundary", profile.boundary);
    if (profile.summary_only) json.field("summary_only", true);
    write_steps(json, profile);
    // Former names are kept, so that compare still matches them after an import.
    std::unordered_map<std::string_view, std::vector<std::string_view>> former;
    for (const auto& [old_name, new_name] : profile.renamed_from) former[new_name].push_back(old_name);
    json.key("phases").begin_array();
    for (const Phase& phase : profile.phases) {
        json.begin_object(true).field("name", phase.name).field("time", phase.time);
        if (!phase.kind.empty()) json.field("kind", phase.kind);
        if (phase.calls) json.field("calls", *phase.calls);
        if (phase.active_time && *phase.active_time != phase.time) json.field("active_time", *phase.active_time);
        if (const auto names = former.find(phase.name); names != former.end()) {
            json.key("renamed_from").begin_array();
            for (const std::string_view name : names->second) json.value(name);
            json.end_array();
        }
        json.end_object();
    }
    json.end_array();
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
    json.end_object();
    return json.str();
}

}  // namespace amdahl
