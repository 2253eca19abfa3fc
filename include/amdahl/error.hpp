#pragma once
/// \file Errors that name the user's input: where (file:line, a JSON path, an option) and what.
#include <stdexcept>
#include <string>

namespace amdahl {

/// An input or usage error. `location` is empty or names the place in the user's input, such as
/// "profile.csv:4", "step.json:3:7" or "step.json: phases[2].time"; `message` says what is wrong.
class Error : public std::runtime_error {
public:
    Error(std::string location, std::string message);
    explicit Error(std::string message) : Error({}, std::move(message)) {}

    const std::string& location() const noexcept { return location_; }
    const std::string& message() const noexcept { return message_; }

private:
    std::string location_;
    std::string message_;
};

}  // namespace amdahl
