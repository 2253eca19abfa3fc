#pragma once
// Parts of a profile written into JSON reports as well as into `amdahl import`'s profile.
#include "amdahl/profile.hpp"
#include "amdahl/report.hpp"

namespace amdahl {

/// "steps": the steps of a trace cut with --window (name, start, time, used, and why one was
/// dropped), when the profile has them; nothing otherwise.
void write_steps(JsonWriter& json, const Profile& profile);

/// A report's keys on what the phases add up to: "boundary" (when known), "steps" (when cut
/// into steps and `with_steps`: plan's "steps" are its own) and "summary_only".
void write_boundary(JsonWriter& json, const Profile& profile, bool with_steps = true);

}  // namespace amdahl
