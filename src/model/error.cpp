#include "amdahl/error.hpp"

namespace amdahl {

namespace {
std::string join(const std::string& location, const std::string& message) {
    return location.empty() ? message : location + ": " + message;
}
}  // namespace

Error::Error(std::string location, std::string message)
    : std::runtime_error(join(location, message)), location_(std::move(location)), message_(std::move(message)) {}

}  // namespace amdahl
