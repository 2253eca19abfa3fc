#pragma once
// Parts of a profile written into JSON reports as well as into `amdahl import`'s profile.
#include "amdahl/profile.hpp"
#include "amdahl/report.hpp"

namespace amdahl {

/// "steps": the steps of a trace cut with --window (name, start, time, used, and why one was
/// dropped), when the profile has them; nothing otherwise.
void write_steps(JsonWriter& json, const Profile& profile);

}  // namespace amdahl
