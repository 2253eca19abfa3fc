#pragma once
// The charts (--plot FILE.svg): one function per command's result, each in its own file
// (src/report/plot_<command>.cpp), drawing with the SVG writer (report/svg.hpp). A chart shows
// the numbers the command's report prints, through the same formatter, and says in its footer
// which model drew it and what that model assumes. Each returns a whole SVG document.
#include <string>

#include "amdahl/numbers.hpp"
#include "amdahl/results.hpp"

namespace amdahl {

/// eval: the phases before and after as stacked bars, the saving and the ceiling marked; with
/// --model replay, plot_replay_svg's timeline.
std::string plot_svg(const EvalResult& result, const NumberStyle& style);
/// eval --model replay: the trace's tracks recorded and replayed on one time axis, the sped-up
/// phases' events and the critical path marked (src/report/plot_replay.cpp).
std::string plot_replay_svg(const EvalResult& result, const NumberStyle& style);
/// law: S against k, the ceiling 1/(1-f) as an asymptote, the solved point marked.
std::string plot_svg(const LawResult& result, const NumberStyle& style);
/// rank: S against k for each ranked target, each ceiling an asymptote, the chosen k marked.
std::string plot_svg(const RankResult& result, const NumberStyle& style);
/// plan: the running speedup step by step up to the target, and the gap left when unreachable.
std::string plot_svg(const PlanReport& result, const NumberStyle& style);
/// scale: speedup and efficiency against N, the best N marked.
std::string plot_svg(const ScaleResult& result, const NumberStyle& style);
/// fit: the measured speedups and the fitted curve against N.
std::string plot_svg(const FitResult& result, const NumberStyle& style);
/// compare: each phase's contribution to the end-to-end change, largest first.
std::string plot_svg(const CompareReport& result, const NumberStyle& style);

}  // namespace amdahl
