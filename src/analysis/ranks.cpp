// Barrier segments across ranks: grouping the ranks' phases into segments, a step's time before and
// after speedups on some ranks, and the stragglers.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_map>

#include "amdahl/error.hpp"
#include "amdahl/ranks.hpp"
#include "amdahl/report.hpp"

namespace amdahl {

namespace {

// "'a', 'b' and 'c'", at most `most` of them, then how many more.
std::string name_list(const std::vector<std::string>& names, std::size_t most = 8) {
    std::string out;
    const std::size_t shown = std::min(names.size(), most);
    for (std::size_t i = 0; i < shown; ++i) out += (i == 0 ? "" : ", ") + std::string("'") + printable(names[i]) + "'";
    if (names.size() > shown) out += " and " + std::to_string(names.size() - shown) + " more";
    return out;
}

// The segment a phase is in: its own name when the profiles name no segments.
const std::string& segment_of(const Phase& phase, bool named) { return named ? phase.segment : phase.name; }

// max_r t(s, r) of one segment's row of times, and the ranks within critical_tolerance of it.
double row_max(const double* row, std::size_t ranks, std::vector<std::size_t>* critical = nullptr) {
    double most = 0;
    for (std::size_t r = 0; r < ranks; ++r) most = std::max(most, row[r]);
    if (critical) {
        critical->clear();
        for (std::size_t r = 0; r < ranks; ++r)
            if (row[r] >= most - critical_tolerance * most) critical->push_back(r);
    }
    return most;
}

// step = Σ_s max_r t(s, r)
double step_time(const std::vector<double>& times, std::size_t segments, std::size_t ranks) {
    double step = 0;
    for (std::size_t s = 0; s < segments; ++s) step += row_max(times.data() + s * ranks, ranks);
    return step;
}

// Where a rank's name comes from, for messages: "a.csv, by its file name".
std::string named_by(const RankProfile& rank) {
    return printable(rank.profile.source) + (rank.from_column ? ", by its 'rank' column" : ", by its file name");
}

}  // namespace

RankSet group_segments(std::vector<RankProfile> ranks) {
    if (ranks.empty()) throw Error("--ranks", "no rank profiles");
    RankSet set;
    set.unit = ranks.front().profile.unit;
    std::unordered_map<std::string, std::size_t> rank_index;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const auto [it, fresh] = rank_index.emplace(ranks[r].rank, r);
        if (!fresh)
            throw Error("--ranks", "two ranks are named '" + printable(ranks[r].rank) + "' (" +
                                       named_by(ranks[it->second]) + ", and " + named_by(ranks[r]) +
                                       "): give each rank once");
    }
    // Segments are named when any phase names one; then every phase must.
    const Profile* named_in = nullptr;
    for (const RankProfile& rank : ranks)
        for (const Phase& phase : rank.profile.phases)
            if (!phase.segment.empty() && !named_in) named_in = &rank.profile;
    set.named_segments = named_in != nullptr;
    for (const RankProfile& rank : ranks) {
        for (const Phase& phase : rank.profile.phases) {
            if (set.named_segments && phase.segment.empty())
                throw Error(rank.profile.where(phase),
                            "phase '" + printable(phase.name) + "' has no segment, but phases of " +
                                printable(named_in->source) + " name theirs; give every phase a segment, or none");
        }
    }
    // The step's segment order, merged from the ranks' orders: a segment first seen on a later
    // rank goes after the segment that precedes it there.
    std::unordered_map<std::string, std::size_t> position;  // segment -> index in set.segments
    std::vector<std::vector<std::size_t>> orders(ranks.size());
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const Profile& profile = ranks[r].profile;
        std::vector<std::size_t>& phase_segment = set.phase_segment.emplace_back();
        phase_segment.reserve(profile.phases.size());
        std::unordered_map<std::string_view, std::size_t> last_phase;  // segment -> its last phase so far
        std::optional<std::size_t> previous;                           // this rank's previous segment
        for (std::size_t p = 0; p < profile.phases.size(); ++p) {
            const std::string& name = segment_of(profile.phases[p], set.named_segments);
            auto found = position.find(name);
            if (found == position.end()) {
                const std::size_t at = previous ? *previous + 1 : 0;
                set.segments.insert(set.segments.begin() + static_cast<std::ptrdiff_t>(at), name);
                for (auto& [segment, index] : position)
                    if (index >= at) ++index;
                for (auto& earlier : orders)
                    for (std::size_t& index : earlier)
                        if (index >= at) ++index;
                for (auto& earlier : set.phase_segment)
                    for (std::size_t& index : earlier)
                        if (index >= at) ++index;
                found = position.emplace(name, at).first;
            }
            const std::size_t s = found->second;
            if (previous && s == *previous) {
                phase_segment.push_back(s);
                last_phase[name] = p;
                continue;
            }
            if (const auto seen = last_phase.find(name); seen != last_phase.end())
                throw Error(profile.where(profile.phases[p]),
                            "segment '" + printable(name) + "' is split: phase '" +
                                printable(profile.phases[seen->second].name) + "' is in it, then segment '" +
                                printable(set.segments[*previous]) + "', then phase '" +
                                printable(profile.phases[p].name) +
                                "'; a rank runs each segment once, its phases together");
            if (previous && s < *previous) {
                // Some earlier rank ran `name` before the segment this rank ran first.
                std::size_t other = 0;
                for (std::size_t q = 0; q < r; ++q) {
                    const auto& order = orders[q];
                    if (std::find(order.begin(), order.end(), s) != order.end() &&
                        std::find(order.begin(), order.end(), *previous) != order.end()) {
                        other = q;
                        break;
                    }
                }
                throw Error("--ranks", "ranks order segments differently: " + printable(profile.source) + " runs '" +
                                           printable(set.segments[*previous]) + "' before '" + printable(name) + "', " +
                                           printable(ranks[other].profile.source) + " runs '" + printable(name) +
                                           "' first");
            }
            orders[r].push_back(s);
            phase_segment.push_back(s);
            last_phase[name] = p;
            previous = s;
        }
    }
    const std::size_t n = ranks.size(), segments = set.segments.size();
    set.times.assign(segments * n, 0);
    std::vector<char> present(segments * n, 0);
    for (std::size_t r = 0; r < n; ++r) {
        Profile& profile = ranks[r].profile;
        if (profile.unit != set.unit) profile = convert_profile(profile, set.unit);
        for (std::size_t p = 0; p < profile.phases.size(); ++p) {
            const std::size_t s = set.phase_segment[r][p];
            set.times[s * n + r] += profile.phases[p].time;
            present[s * n + r] = 1;
        }
    }
    set.missing = static_cast<std::size_t>(std::count(present.begin(), present.end(), 0));
    set.notes.push_back(set.named_segments
                            ? "segments from the phases' \"segment\" fields: " + std::to_string(segments) +
                                  " segments on " + std::to_string(n) + " ranks"
                            : "no phase names a segment: every phase is its own barrier segment, matched by name "
                              "across the ranks (" +
                                  std::to_string(n) + (n == 1 ? " rank)" : " ranks)"));
    if (set.missing > 0) {
        for (std::size_t i = 0; i < present.size(); ++i) {
            if (present[i]) continue;
            set.notes.push_back(std::to_string(set.missing) + " (segment, rank) " +
                                (set.missing == 1 ? "pair is" : "pairs are") + " absent (first: '" +
                                printable(set.segments[i / n]) + "' on " + printable(ranks[i % n].rank) +
                                "): a rank without a segment spends 0 in it and waits at its barrier");
            break;
        }
    }
    for (RankProfile& rank : ranks) {
        set.ranks.push_back(std::move(rank.rank));
        set.profiles.push_back(std::move(rank.profile));
    }
    return set;
}

RankSpeedup parse_rank_speedup(std::string_view text) {
    RankSpeedup out;
    out.text = std::string(text);
    std::string_view rest = text;
    if (text.starts_with('@')) {
        const auto colon = text.find(':');
        if (colon == std::string_view::npos || colon == 1)
            throw Error("speedup '" + printable(text) + "': expected @RANK:SELECTOR=FACTOR (e.g. @rank3:attention=2)");
        out.rank = std::string(text.substr(1, colon - 1));
        rest = text.substr(colon + 1);
    }
    try {
        out.spec = parse_speedup(rest);
    } catch (const Error& e) {
        // parse_speedup names the part it read; name the whole argument, its rank prefix included.
        std::string message = e.message();
        const std::string read = "speedup '" + std::string(rest) + "'";
        if (message.starts_with(read)) message.replace(0, read.size(), "speedup '" + printable(text) + "'");
        throw Error(e.location(), message);
    }
    out.spec.text = out.text;
    return out;
}

RanksEvaluation evaluate_ranks(const RankSet& set, const std::vector<RankSpeedup>& speedups) {
    const std::size_t n = set.ranks.size(), segments = set.segments.size();
    RanksEvaluation e;
    // Per rank, per phase: the speedup that picked it, or -1.
    std::vector<std::vector<int>> picked(n);
    for (std::size_t r = 0; r < n; ++r) picked[r].assign(set.profiles[r].phases.size(), -1);
    std::set<std::string> notes_seen;
    e.speedups.resize(speedups.size());
    for (std::size_t i = 0; i < speedups.size(); ++i) {
        const RankSpeedup& speedup = speedups[i];
        std::vector<std::size_t> on;
        if (speedup.rank) {
            const auto it = std::find(set.ranks.begin(), set.ranks.end(), *speedup.rank);
            if (it == set.ranks.end())
                throw Error("speedup '" + printable(speedup.text) + "': no rank is named '" + printable(*speedup.rank) +
                            "' (the ranks: " + name_list(set.ranks) + ")");
            on.push_back(static_cast<std::size_t>(it - set.ranks.begin()));
        } else {
            for (std::size_t r = 0; r < n; ++r) on.push_back(r);
        }
        std::optional<Error> first_error;
        std::string first_error_rank;
        std::set<std::string> phase_names;
        for (std::size_t r : on) {
            std::vector<std::size_t> phases;
            std::vector<std::string> notes;
            try {
                phases = select_phases(set.profiles[r], speedup.spec.selector, &notes);
            } catch (const Error& error) {
                if (!first_error) {
                    first_error = error;
                    first_error_rank = set.ranks[r];
                }
                continue;
            }
            for (auto& note : notes)
                if (notes_seen.insert(note).second) e.notes.push_back(std::move(note));
            e.speedups[i].ranks.push_back(r);
            for (std::size_t p : phases) {
                const Phase& phase = set.profiles[r].phases[p];
                if (picked[r][p] >= 0)
                    throw Error("speedups '" + printable(speedups[static_cast<std::size_t>(picked[r][p])].text) +
                                "' and '" + printable(speedup.text) + "' both pick phase '" + printable(phase.name) +
                                "' on " + printable(set.ranks[r]));
                picked[r][p] = static_cast<int>(i);
                phase_names.insert(phase.name);
                const std::size_t s = set.phase_segment[r][p];
                if (std::find(e.speedups[i].segments.begin(), e.speedups[i].segments.end(), s) ==
                    e.speedups[i].segments.end())
                    e.speedups[i].segments.push_back(s);
            }
        }
        if (e.speedups[i].ranks.empty())
            throw Error("speedup '" + printable(speedup.text) + "'" +
                        (speedup.rank ? " on " : " picks no phase on any rank; on ") + printable(first_error_rank) +
                        ": " + first_error->message());
        e.speedups[i].phases.assign(phase_names.begin(), phase_names.end());
        std::sort(e.speedups[i].segments.begin(), e.speedups[i].segments.end());
    }

    // t'(s, r) = Σ over r's phases in s of t / k, and per speedup the times with it alone.
    std::vector<double> after = set.times;
    std::vector<std::vector<double>> alone(speedups.size(), set.times);
    for (std::size_t r = 0; r < n; ++r) {
        const Profile& profile = set.profiles[r];
        for (std::size_t p = 0; p < profile.phases.size(); ++p) {
            const int i = picked[r][p];
            if (i < 0) continue;
            const double k = speedups[static_cast<std::size_t>(i)].spec.factor.value;
            const double time = profile.phases[p].time;
            const double saved = time - time / k;  // t - t / k (t when k is infinite)
            const std::size_t cell = set.phase_segment[r][p] * n + r;
            after[cell] -= saved;
            alone[static_cast<std::size_t>(i)][cell] -= saved;
            e.speedups[static_cast<std::size_t>(i)].busy_time_saved += saved;
        }
    }
    // Subtracting can leave -0 or rounding below 0 where a whole segment's time went.
    for (double& t : after) t = std::max(t, 0.0);

    e.segments.resize(segments);
    e.busy_before.assign(n, 0);
    e.busy_after.assign(n, 0);
    e.slack_before.assign(n, 0);
    e.slack_after.assign(n, 0);
    for (std::size_t s = 0; s < segments; ++s) {
        SegmentOutcome& outcome = e.segments[s];
        const double* before_row = set.times.data() + s * n;
        const double* after_row = after.data() + s * n;
        outcome.before = row_max(before_row, n, &outcome.critical_before);
        outcome.after = row_max(after_row, n, &outcome.critical_after);
        e.baseline_time += outcome.before;
        e.new_time += outcome.after;
        // slack(s, r) = max_r' t(s, r') - t(s, r): how long r waits at the barrier ending s.
        for (std::size_t r = 0; r < n; ++r) {
            e.busy_before[r] += before_row[r];
            e.busy_after[r] += after_row[r];
            e.slack_before[r] += outcome.before - before_row[r];
            e.slack_after[r] += outcome.after - after_row[r];
        }
    }
    e.time_saved = e.baseline_time - e.new_time;
    // S = step / step'
    e.speedup = e.new_time > 0 ? e.baseline_time / e.new_time : std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < speedups.size(); ++i) {
        RankSpeedupOutcome& outcome = e.speedups[i];
        outcome.step_time_saved = e.baseline_time - step_time(alone[i], segments, n);
        for (std::size_t r = 0; r < n && !outcome.critical_anywhere; ++r) {
            for (std::size_t p = 0; p < picked[r].size(); ++p) {
                if (picked[r][p] != static_cast<int>(i)) continue;
                const auto& critical = e.segments[set.phase_segment[r][p]].critical_before;
                if (std::find(critical.begin(), critical.end(), r) != critical.end()) {
                    outcome.critical_anywhere = true;
                    break;
                }
            }
        }
    }
    return e;
}

std::vector<Straggler> rank_stragglers(const RankSet& set) {
    const std::size_t n = set.ranks.size();
    std::vector<Straggler> out;
    out.reserve(set.segments.size());
    for (std::size_t s = 0; s < set.segments.size(); ++s) {
        Straggler straggler;
        straggler.segment = s;
        const double* row = set.times.data() + s * n;
        straggler.time = row_max(row, n, &straggler.ranks);
        for (std::size_t r = 0; r < n; ++r) {
            if (std::find(straggler.ranks.begin(), straggler.ranks.end(), r) != straggler.ranks.end()) continue;
            if (!straggler.next || row[r] > straggler.next_time) {
                straggler.next = r;
                straggler.next_time = row[r];
            }
        }
        // held(s) = max_r t(s, r) - the largest t(s, r') of a rank r' that is not critical; 0 for a tie.
        straggler.held = straggler.ranks.size() == 1 ? straggler.time - straggler.next_time : 0;
        out.push_back(std::move(straggler));
    }
    std::stable_sort(out.begin(), out.end(), [](const Straggler& a, const Straggler& b) { return a.held > b.held; });
    return out;
}

}  // namespace amdahl
