// Reads the speedup out of an `amdahl eval --format json` report, for `amdahl queue
// --speedup-from`: the proposal's end-to-end speedup becomes the service-time speedup of a queue.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "input/json_errors.hpp"

namespace amdahl {

ReportedSpeedup read_eval_speedup(std::string_view content, const std::string& source) {
    using Json = nlohmann::json;
    detail::check_depth(content, source, 64);
    Json doc;
    try {
        doc = Json::parse(content.begin(), content.end());
    } catch (const Json::exception&) {
        throw Error(source, "expected the JSON report of 'amdahl eval --format json' (this is not JSON)");
    }
    const auto command = doc.is_object() ? doc.find("command") : doc.end();
    if (!doc.is_object() || command == doc.end() || *command != "eval")
        throw Error(source, "expected the JSON report of 'amdahl eval --format json' (no \"command\": \"eval\")");
    // Keys mean what schema_version 1 says they mean; a later version may not.
    const auto version = doc.find("schema_version");
    if (version == doc.end())
        throw Error(source, "the report has no \"schema_version\" (amdahl reads eval reports of schema_version 1)");
    if (*version != 1)
        throw Error(source, "the report has schema_version " + printable(version->dump()) +
                                "; amdahl reads eval reports of schema_version 1");
    // With --model replay the report answers with the replayed speedup; `speedup` is then the
    // phase table's figure beside it.
    ReportedSpeedup out;
    const auto model = doc.find("model");
    out.key = model != doc.end() && *model == "replay" ? "replayed_speedup" : "speedup";
    const auto value = doc.find(out.key);
    if (value == doc.end()) throw Error(source, "the report has no \"" + out.key + "\"");
    if (value->is_null())
        throw Error(source, "\"" + out.key + "\" is null (infinite): a service time of zero has no queue");
    if (!value->is_number() || !(value->get<double>() > 0) || !std::isfinite(value->get<double>()))
        throw Error(source, "\"" + out.key + "\" must be a number > 0 (got " + printable(value->dump()) + ")");
    out.speedup = value->get<double>();
    // Factor or time ranges: the point is a midpoint, and a queue takes one speedup. Not picked unseen.
    if (const auto u = doc.find("uncertainty"); u != doc.end() && u->is_object()) {
        const auto low = u->find("speedup_low"), high = u->find("speedup_high");
        if (low != u->end() && high != u->end() && low->is_number() &&
            (!high->is_number() || low->get<double>() < high->get<double>()))
            throw Error(source, fmt::format("the report's speedup is a range ({:.4f}x to {}; \"speedup\" is its "
                                            "midpoint): queue takes one service-time speedup, give -s with the "
                                            "one you mean",
                                            low->get<double>(),
                                            high->is_number() ? fmt::format("{:.4f}x", high->get<double>()) : "inf"));
    }
    // Overlapped phases: the true speedup lies in a range, which `speedup` is one end of.
    const auto range = doc.find("speedup_range");
    if (out.key == "speedup" && range != doc.end() && range->is_object()) {
        const auto low = range->find("low"), high = range->find("high");
        const auto bound = [](const Json& v) {
            return v.is_number() ? v.get<double>() : std::numeric_limits<double>::infinity();  // null: infinite
        };
        if (low != range->end() && high != range->end()) out.range = std::pair{bound(*low), bound(*high)};
    }
    return out;
}

}  // namespace amdahl
