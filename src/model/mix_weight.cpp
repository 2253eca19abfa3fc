// The weights of a workload mix as written: "0.7", "70%", "120gpus", "15/s".
#include <cmath>

#include "amdahl/error.hpp"
#include "amdahl/mix.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"

namespace amdahl {

std::string_view mix_weight_kind_name(MixWeightKind kind) {
    switch (kind) {
        case MixWeightKind::gpus:
            return "gpus";
        case MixWeightKind::rate:
            return "rate";
        case MixWeightKind::share:
            break;
    }
    return "share";
}

MixWeight parse_mix_weight(std::string_view text) {
    MixWeight weight;
    weight.text = std::string(text);
    std::string_view number = text;
    const auto strip = [&](std::string_view suffix) {
        if (!number.ends_with(suffix)) return false;
        number.remove_suffix(suffix.size());
        return true;
    };
    bool percent = false;
    if (strip("/s")) {
        weight.kind = MixWeightKind::rate;
    } else if (strip("gpus") || strip("gpu")) {
        weight.kind = MixWeightKind::gpus;
    } else {
        percent = strip("%");
    }
    double value = 0;
    if (number.empty() || !parse_double(number, value) || !std::isfinite(value))
        throw Error("weight '" + printable(text) +
                    "' is not a share of fleet time (0.7 or 70%), a GPU count (120gpus) or a request rate (15/s)");
    if (!(value > 0)) throw Error("weight '" + printable(text) + "' must be > 0");
    weight.value = percent ? value / 100 : value;
    if (weight.kind == MixWeightKind::share && weight.value > 1)
        throw Error("weight '" + printable(text) +
                    "' is a share of fleet time above 1 (write 0.7 or 70%; 120gpus for a GPU count, 15/s for a rate)");
    return weight;
}

}  // namespace amdahl
