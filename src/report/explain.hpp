#pragma once
// The arithmetic behind an answer, line by line, the way a worked solution writes it.
#include <string>
#include <vector>

#include "amdahl/evaluate.hpp"
#include "amdahl/law.hpp"

namespace amdahl::cli {

std::vector<std::string> explain_eval(const Profile& profile, const std::vector<SpeedupSpec>& specs,
                                      const Evaluation& result, int precision);

/// `given` says which two quantities the user gave: "fk", "fs" or "ks".
std::vector<std::string> explain_law(const LawSolution& solution, std::string_view given, int precision);

}  // namespace amdahl::cli
