#pragma once
// The one-sentence verdict of `eval` (--verdict, and a line of its text summary): what the
// proposal buys, what it could ever buy, and where the rest of the time is, from the numbers.
#include <string>
#include <string_view>

#include "amdahl/results.hpp"
#include "report/numbers.hpp"

namespace amdahl {

/// "A 10x speedup of k, 1.23% of device time, buys 1.11% of it (1.0112x); even an infinitely fast
/// one would buy only 1.23%: more time is in copy_a (65.4%) and copy_b (33.4%)."
std::string eval_verdict(const EvalResult& result, const NumberStyle& style);

/// "A" or "An" before a number as written by format_factor, by how it is read aloud: an 8x, an
/// 11x, an 18x, an 80x, an 800x, an 8,000x, an 11,500x; a 1.8x, a 110x, a 10x.
std::string_view capital_article(std::string_view number);

}  // namespace amdahl
