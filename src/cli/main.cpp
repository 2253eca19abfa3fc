#include <unistd.h>

#include <iostream>

#include "cli/run.hpp"

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    return amdahl::cli::run(argc, argv, std::cin, std::cout, std::cerr, ::isatty(STDOUT_FILENO) == 1,
                            ::isatty(STDERR_FILENO) == 1);
}
