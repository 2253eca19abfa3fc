// Writes a profile in amdahl's JSON profile format, the one src/io_json.cpp reads.
#include "amdahl/io.hpp"
#include "amdahl/report.hpp"

namespace amdahl {

std::string profile_to_json(const Profile& profile) {
    JsonWriter json;
    json.begin_object();
    json.field("name", profile.name.empty() ? profile.source : profile.name);
    json.field("unit", unit_name(profile.unit));
    json.field("total", profile.total());
    if (!profile.format.empty()) json.field("format", profile.format);
    if (!profile.boundary.empty()) json.field("boundary", profile.boundary);
    if (profile.summary_only) json.field("summary_only", true);
    json.key("phases").begin_array();
    for (const Phase& phase : profile.phases) {
        json.begin_object(true).field("name", phase.name).field("time", phase.time);
        if (!phase.kind.empty()) json.field("kind", phase.kind);
        if (phase.active_time && *phase.active_time != phase.time) json.field("active_time", *phase.active_time);
        json.end_object();
    }
    json.end_array();
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
