// A project outside amdahl that links the installed library and evaluates the exercise.
#include <amdahl/evaluate.hpp>
#include <amdahl/law.hpp>

#include <cmath>
#include <cstdio>

int main() {
    amdahl::Profile profile;
    profile.phases = {{"attention_softmax", "kernel", 21.0, std::nullopt, 0, std::nullopt},
                      {"rest", "", 79.0, std::nullopt, 0, std::nullopt}};
    const auto result = amdahl::evaluate(profile, {amdahl::parse_speedup("attention_softmax=10")});
    std::printf("%.4f\n", result.speedup);
    return std::fabs(result.speedup - 1.2330) < 1e-4 && std::fabs(amdahl::amdahl_ceiling(0.6) - 2.5) < 1e-12 ? 0 : 1;
}
