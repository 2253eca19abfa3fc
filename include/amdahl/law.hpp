#pragma once
/// \file Amdahl's law in closed form: S = 1 / ((1 - f) + f / k), ceiling 1 / (1 - f).
#include <cmath>
#include <string_view>
#include <vector>

namespace amdahl {

/// A time after a local speedup k: T / k, 0 when k is infinite.
inline double time_at_factor(double time, double factor) { return std::isinf(factor) ? 0.0 : time / factor; }
/// The time a local speedup k saves: T - T / k, all of T when k is infinite.
inline double saving_at_factor(double time, double factor) { return std::isinf(factor) ? time : time - time / factor; }

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
    /// The speedup is the ceiling itself: reached only when the part takes no time (k = infinity);
    /// every finite factor falls short of it.
    bool at_ceiling = false;
    std::string_view reason;
};

/// One part of a run sped up: a fraction f_i of the time at a local speedup k_i (may be infinite).
struct LawPart {
    double fraction = 0;
    double factor = 1;
};

/// Given f and k: the speedup.
LawSolution solve_for_speedup(double fraction, double factor);
/// Given several parts (their fractions adding up to at most 1): S = 1 / ((1 - sum f_i) + sum f_i / k_i).
/// `fraction` is then sum f_i and `factor` the parts' combined local speedup sum f_i / sum (f_i / k_i).
LawSolution solve_for_speedup(const std::vector<LawPart>& parts);
/// Given f and a target speedup: the local factor needed, k = f / (1/S - (1 - f)).
LawSolution solve_for_factor(double fraction, double target);
/// Given k and a target speedup: the fraction needed, f = (1 - 1/S) / (1 - 1/k).
LawSolution solve_for_fraction(double factor, double target);

}  // namespace amdahl
