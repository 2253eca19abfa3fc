// The README's examples are real runs: each `$ amdahl ...` line in a ```console block must still
// print exactly what the README shows (stdout, then stderr). scripts/update-readme refreshes them.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support.hpp"

namespace {

// Splits a command line the way a POSIX shell does for plain words and '...'/"..." quoting.
std::vector<std::string> shell_words(const std::string& line) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (char c : line) {
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                word += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (c == ' ') {
            if (in_word) words.push_back(word);
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (in_word) words.push_back(word);
    return words;
}

struct Example {
    std::string command;
    std::string expected;
};

std::vector<Example> console_examples(const std::string& path) {
    std::ifstream file(path);
    std::vector<Example> examples;
    std::string line;
    bool in_block = false;
    while (std::getline(file, line)) {
        if (!in_block) {
            in_block = line == "```console";
            continue;
        }
        if (line == "```") {
            in_block = false;
        } else if (line.starts_with("$ ")) {
            examples.push_back({line.substr(2), ""});
        } else if (!examples.empty()) {
            examples.back().expected += line + "\n";
        }
    }
    return examples;
}

}  // namespace

TEST_CASE("README and docs examples print what they show", "[readme]") {
    std::vector<std::string> files{amdahl::test::source_path("README.md")};
    const auto docs = std::filesystem::path(amdahl::test::source_path("docs"));
    if (std::filesystem::exists(docs)) {
        for (const auto& entry : std::filesystem::directory_iterator(docs)) {
            if (entry.path().extension() == ".md") files.push_back(entry.path().string());
        }
    }
    std::size_t checked = 0;
    for (const auto& file : files) {
        for (const auto& example : console_examples(file)) {
            INFO(file << ": $ " << example.command);
            auto words = shell_words(example.command);
            REQUIRE(words.at(0) == "amdahl");
            words.erase(words.begin());
            for (auto& w : words) {  // relative paths in the README are from the repository root
                if (w.starts_with("examples/")) w = amdahl::test::source_path(w);
            }
            const auto result = amdahl::test::run_cli(words);
            std::string actual = result.out + result.err;
            // Messages name the file as given; the README gives it relative to the root.
            const std::string root = amdahl::test::source_path("");
            for (std::size_t pos; (pos = actual.find(root)) != std::string::npos;) actual.erase(pos, root.size());
            CHECK(actual == example.expected);
            ++checked;
        }
    }
    CHECK(checked >= 8);
}
