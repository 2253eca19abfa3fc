#pragma once
/// \file Amdahl's law in closed form: S = 1 / ((1 - f) + f / k), ceiling 1 / (1 - f).
#include <string_view>

namespace amdahl {

/// End-to-end speedup when a fraction f of the time gets a local speedup k (k may be infinite).
double amdahl_speedup(double fraction, double factor);
/// The speedup as k -> infinity: 1 / (1 - f); infinite when f == 1.
double amdahl_ceiling(double fraction);

/// Solving the law for the missing quantity. `possible` is false when no value can reach the
/// target; `reason` then says why in words.
struct LawSolution {
    double fraction = 0;
    double factor = 1;
    double speedup = 1;
    double ceiling = 1;
    bool possible = true;
    std::string_view reason;
};

/// Given f and k: the speedup.
LawSolution solve_for_speedup(double fraction, double factor);
/// Given f and a target speedup: the local factor needed, k = f / (1/S - (1 - f)).
LawSolution solve_for_factor(double fraction, double target);
/// Given k and a target speedup: the fraction needed, f = (1 - 1/S) / (1 - 1/k).
LawSolution solve_for_fraction(double factor, double target);

}  // namespace amdahl
