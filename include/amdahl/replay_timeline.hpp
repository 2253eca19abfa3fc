#pragma once
/// \file A trace's timeline recorded and replayed, per track, for a picture (eval --model replay
/// --plot): the events as runs on a time axis, those of the sped-up phases and those on the
/// critical path told apart. Events too short to see at the chart's resolution are merged into
/// runs, so the timeline's size is bounded by tracks x resolution, not by the trace's events.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "amdahl/evaluate.hpp"
#include "amdahl/profile.hpp"

namespace amdahl {

/// One event, or neighbouring events merged because some were shorter than the resolution.
struct TimelineRun {
    double start = 0, end = 0;  ///< since the timeline's origin, in the profile's unit
    std::size_t events = 0;     ///< how many events it holds (1: drawn as it is)
    double busy = 0;            ///< time some of its events run (their durations added)
    double sped_up = 0;         ///< of `busy`, the sped-up phases' events' time
    std::string name;           ///< with one event: its phase, or its own name when it is of no phase
};

/// A stretch of a track that the critical path runs through: its events on the path, merged
/// where the gap between them is shorter than the resolution.
struct TimelineSpan {
    double start = 0, end = 0;  ///< since the timeline's origin, in the profile's unit
};

/// One side (recorded or replayed) of one track.
struct TimelineStrip {
    std::vector<TimelineRun> runs;
    std::vector<TimelineSpan> critical;
};

struct TimelineTrack {
    std::string name;  ///< "stream 7 (device 0)", "thread 12 (process 3)"; "CPU" or "GPU" when unknown
    bool gpu = false;
    std::size_t events = 0;
    TimelineStrip recorded, replayed;
};

struct ReplayTimeline {
    /// Both timelines start at the same origin, the earlier of the two first starts (0 on the axis).
    double recorded_end = 0, replayed_end = 0;  ///< the makespans' ends, in the profile's unit
    double resolution = 0;                      ///< runs narrower than this were merged (profile's unit)
    std::vector<TimelineTrack> tracks;          ///< the tracks shown, in the trace's order
    /// Tracks not shown (beyond `max_tracks`: those that least hold the critical path, then the least busy).
    std::size_t tracks_left_out = 0, events_left_out = 0;
    struct SpedUp {
        std::string name;
        double factor = 1;  ///< infinity: no time
    };
    std::vector<SpedUp> sped_up;  ///< the sped-up phases that have events, in the trace's phase order
};

/// The timeline of `evaluation`'s speedups replayed over `profile`'s dependencies (the factors
/// replay_evaluation takes), at `cells` cells across the longer makespan (events and gaps shorter
/// than a cell are merged), with at most `max_tracks` tracks. Throws amdahl::Error when the
/// profile has no dependencies.
ReplayTimeline replay_timeline(const Profile& profile, const Evaluation& evaluation, std::size_t cells,
                               std::size_t max_tracks);

}  // namespace amdahl
