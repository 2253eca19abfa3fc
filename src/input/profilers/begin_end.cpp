#include "input/profilers/begin_end.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "input/profilers/timeline.hpp"

namespace amdahl::detail {

namespace {

constexpr std::size_t npos = static_cast<std::size_t>(-1);

// The open B events of one track. Closing one leaves it in place, marked used; the stacks drop
// used marks when they come to the top, so each mark is pushed and dropped once per stack.
class OpenBegins {
public:
    OpenBegins(const std::vector<Mark>& marks, std::vector<bool>& used, std::size_t& visited)
        : marks_(marks), used_(used), visited_(visited) {}

    void push(std::size_t mark) {
        all_.push_back(mark);
        by_name_[marks_[mark].name].push_back(mark);
    }
    /// The latest open B named `name` (of any name when `name` is 0), or npos.
    std::size_t latest(std::uint32_t name) {
        if (name == 0) return top(all_);
        const auto found = by_name_.find(name);
        return found == by_name_.end() ? npos : top(found->second);
    }
    /// Calls `f(mark)` for each open B in the order they opened, and forgets them all.
    template <class F>
    void drain(F&& f) {
        for (std::size_t mark : all_)
            if (!used_[mark]) f(mark);
        all_.clear();
        by_name_ = {};  // clear() would keep the buckets, and a later track would pay for them
    }

private:
    std::size_t top(std::vector<std::size_t>& stack) {
        while (!stack.empty()) {
            ++visited_;
            if (!used_[stack.back()]) return stack.back();
            stack.pop_back();
        }
        return npos;
    }

    const std::vector<Mark>& marks_;
    std::vector<bool>& used_;
    std::size_t& visited_;
    std::vector<std::size_t> all_;                                         // in the order they opened
    std::unordered_map<std::uint32_t, std::vector<std::size_t>> by_name_;  // the same, per name
};

// The B events of one instant on one track that an E listed before them may take: per name, the
// positions not yet taken, the earliest last. Built when an E first needs it.
class LaterBegins {
public:
    LaterBegins(const std::vector<Mark>& marks, std::vector<bool>& used, std::size_t& visited)
        : marks_(marks), used_(used), visited_(visited) {}

    /// The first B after position `e` at the same instant on the same track, named like the E
    /// there and not yet taken, or npos.
    std::size_t first(std::size_t e) {
        if (e >= end_) build(e);
        const auto found = by_name_.find(marks_[e].name);
        if (found == by_name_.end()) return npos;
        auto& positions = found->second;
        while (!positions.empty()) {
            ++visited_;
            const std::size_t b = positions.back();
            if (b > e && !used_[b]) return b;
            positions.pop_back();
        }
        return npos;
    }

private:
    void build(std::size_t e) {
        const Mark& m = marks_[e];
        end_ = e;
        while (end_ < marks_.size() && marks_[end_].track == m.track && marks_[end_].time == m.time) ++end_;
        by_name_ = {};
        for (std::size_t j = end_; j-- > e;) {
            ++visited_;
            if (marks_[j].begin) by_name_[marks_[j].name].push_back(j);
        }
    }

    const std::vector<Mark>& marks_;
    std::vector<bool>& used_;
    std::size_t& visited_;
    std::size_t end_ = 0;  // one past the instant built for
    std::unordered_map<std::uint32_t, std::vector<std::size_t>> by_name_;
};

}  // namespace

Pairing pair_begin_end(std::vector<Mark>& marks, double trace_end, const Timeline& timeline,
                       const std::string& source) {
    Pairing out;
    std::stable_sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) {
        return a.track != b.track ? a.track < b.track : a.time < b.time;
    });
    std::vector<bool> used(marks.size(), false);  // B events closed, or taken by an E before them
    OpenBegins open(marks, used, out.marks_visited);
    LaterBegins later(marks, used, out.marks_visited);
    // A pair's correlation id: the B's, else the E's.
    const auto link_of = [&](std::size_t b, const Mark& e) { return marks[b].link != 0 ? marks[b].link : e.link; };
    // A B never closed runs to the end of the trace.
    const auto close_unmatched = [&] {
        open.drain([&](std::size_t b) {
            const Mark& m = marks[b];
            out.spans.push_back({m.time, std::max(m.time, trace_end), m.name, m.category, m.track, m.link});
            ++out.unclosed;
        });
    };
    for (std::size_t i = 0; i < marks.size(); ++i) {
        if (i > 0 && marks[i].track != marks[i - 1].track) close_unmatched();
        const Mark& m = marks[i];
        if (used[i]) continue;
        if (m.begin) {
            open.push(i);
            continue;
        }
        if (const std::size_t b = open.latest(m.name); b != npos) {
            used[b] = true;
            out.spans.push_back({marks[b].time, m.time, marks[b].name, marks[b].category, m.track, link_of(b, m)});
            continue;
        }
        // An E listed before its B at the same instant: a zero-length span.
        if (const std::size_t b = later.first(i); b != npos) {
            used[b] = true;
            out.spans.push_back({m.time, m.time, m.name, marks[b].category, m.track, link_of(b, m)});
            continue;
        }
        throw Error(source + ":" + std::to_string(m.line) + ":" + std::to_string(m.column),
                    "an \"E\" event for '" + printable(timeline.text(m.name)) +
                        "' has no matching \"B\" event before it on its thread");
    }
    close_unmatched();
    return out;
}

}  // namespace amdahl::detail
