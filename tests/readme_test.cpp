// The README's examples are real runs: each `$ amdahl ...` line in a ```console block must still
// print exactly what the README shows below it, stream by stream, and exit as the README says.
// The lines below a command are its standard output, then its standard error; a comment after the
// command says how many of the last lines are standard error and any exit status other than 0:
//
//     $ amdahl compare before.json after.json --fail-if-slower 2%  # exit 1; stderr: last 2 lines
//
// scripts/update-readme refreshes the output and the stderr count, and refuses to record an exit
// status other than the one the README marks.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support.hpp"

namespace {

struct Words {
    std::vector<std::string> words;
    std::string comment;  ///< after an unquoted '#' that starts a word, without the '#'
};

// Splits a command line the way a POSIX shell does for plain words, '...'/"..." quoting and a
// trailing # comment.
Words shell_words(const std::string& line) {
    Words out;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                word += c;
        } else if (c == '#' && !in_word) {
            out.comment = line.substr(i + 1);
            break;
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (c == ' ') {
            if (in_word) out.words.push_back(word);
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (in_word) out.words.push_back(word);
    return out;
}

std::string trimmed(const std::string& text) {
    const auto start = text.find_first_not_of(' ');
    if (start == std::string::npos) return "";
    return text.substr(start, text.find_last_not_of(' ') - start + 1);
}

struct Example {
    std::string command;  ///< as written after "$ ", comment included
    std::vector<std::string> words;
    int exit_code = 0;
    std::size_t stderr_lines = 0;
    std::vector<std::string> lines;  ///< below the command: its stdout, then its stderr
    std::string problem;             ///< a mark the test does not understand

    std::string expected(std::size_t from, std::size_t to) const {
        std::string text;
        for (std::size_t i = from; i < to; ++i) text += lines[i] + "\n";
        return text;
    }
    std::string expected_out() const { return expected(0, lines.size() - stderr_lines); }
    std::string expected_err() const { return expected(lines.size() - stderr_lines, lines.size()); }
};

// Reads the marks of a command's comment: "exit N" and "stderr: last line" / "stderr: last N lines",
// separated by ';'.
void read_marks(const std::string& comment, Example& example) {
    std::istringstream parts(comment);
    for (std::string part; std::getline(parts, part, ';');) {
        part = trimmed(part);
        const std::string prefix = "stderr: last ", suffix = " lines";
        const std::string count =
            part.size() > prefix.size() + suffix.size() && part.starts_with(prefix) && part.ends_with(suffix)
                ? part.substr(prefix.size(), part.size() - prefix.size() - suffix.size())
                : "";
        if (part == "exit 1" || part == "exit 2") {
            example.exit_code = part.back() - '0';
        } else if (part == "stderr: last line") {
            example.stderr_lines = 1;
        } else if (!count.empty() && count.find_first_not_of("0123456789") == std::string::npos &&
                   std::stoul(count) > 1) {
            example.stderr_lines = std::stoul(count);
        } else {
            example.problem = "unknown mark '" + part + "' (expected 'exit 1', 'exit 2', 'stderr: last line' or " +
                              "'stderr: last N lines')";
        }
    }
}

std::vector<Example> console_examples(const std::string& text) {
    std::istringstream file(text);
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
            Example& example = examples.emplace_back();
            example.command = line.substr(2);
            Words words = shell_words(example.command);
            example.words = std::move(words.words);
            read_marks(words.comment, example);
        } else if (!examples.empty()) {
            examples.back().lines.push_back(line);
        }
    }
    for (Example& example : examples) {
        if (example.stderr_lines > example.lines.size() && example.problem.empty())
            example.problem = "marks " + std::to_string(example.stderr_lines) + " lines of stderr below a command " +
                              "that shows " + std::to_string(example.lines.size());
    }
    return examples;
}

std::string slurp(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream buffer;
    buffer << file.rdbuf();
    return buffer.str();
}

// Messages name a file as given; the README gives it relative to the repository root.
std::string relative_paths(std::string text) {
    const std::string root = amdahl::test::source_path("");
    for (std::size_t pos; (pos = text.find(root)) != std::string::npos;) text.erase(pos, root.size());
    return text;
}

}  // namespace

TEST_CASE("README examples: a command's lines are its stdout then its stderr, as its comment marks", "[readme]") {
    const auto examples = console_examples(
        "intro\n"
        "```console\n"
        "$ amdahl eval 'a b.json' -s x=2\n"
        "out 1\n"
        "out 2\n"
        "$ amdahl compare a.json b.json --fail-if-slower 2%  # exit 1; stderr: last 2 lines\n"
        "table\n"
        "\n"
        "gate failed: x\n"
        "verdict: FAIL\n"
        "```\n"
        "```sh\n"
        "$ amdahl not an example\n"
        "```\n"
        "```console\n"
        "$ amdahl eval x.json --window 'Step#.*' # stderr: last line\n"
        "error: x.json: no such file\n"
        "$ amdahl eval a.json  # exit 3\n"
        "$ amdahl eval a.json  # stderr: last 2 lines\n"
        "only one line\n"
        "```\n");
    REQUIRE(examples.size() == 5);
    CHECK(examples[0].words == std::vector<std::string>{"amdahl", "eval", "a b.json", "-s", "x=2"});
    CHECK(examples[0].exit_code == 0);
    CHECK(examples[0].expected_out() == "out 1\nout 2\n");
    CHECK(examples[0].expected_err().empty());
    CHECK(examples[0].problem.empty());

    CHECK(examples[1].words ==
          std::vector<std::string>{"amdahl", "compare", "a.json", "b.json", "--fail-if-slower", "2%"});
    CHECK(examples[1].exit_code == 1);
    CHECK(examples[1].expected_out() == "table\n\n");
    CHECK(examples[1].expected_err() == "gate failed: x\nverdict: FAIL\n");
    CHECK(examples[1].problem.empty());

    // A '#' inside a word is part of it.
    CHECK(examples[2].words == std::vector<std::string>{"amdahl", "eval", "x.json", "--window", "Step#.*"});
    CHECK(examples[2].exit_code == 0);
    CHECK(examples[2].expected_out().empty());
    CHECK(examples[2].expected_err() == "error: x.json: no such file\n");

    // Exit 3 is an internal error: never what a README shows.
    CHECK(examples[3].problem ==
          "unknown mark 'exit 3' (expected 'exit 1', 'exit 2', 'stderr: last line' or 'stderr: last N lines')");
    CHECK(examples[4].problem == "marks 2 lines of stderr below a command that shows 1");
}

TEST_CASE("README and docs examples print what they show and exit as they say", "[readme]") {
    std::vector<std::string> files{amdahl::test::source_path("README.md")};
    const auto docs = std::filesystem::path(amdahl::test::source_path("docs"));
    if (std::filesystem::exists(docs)) {
        for (const auto& entry : std::filesystem::directory_iterator(docs)) {
            if (entry.path().extension() == ".md") files.push_back(entry.path().string());
        }
    }
    std::size_t checked = 0, failing = 0, with_stderr = 0;
    const amdahl::test::TempDir charts;
    for (const auto& file : files) {
        for (const auto& example : console_examples(slurp(file))) {
            INFO(file << ": $ " << example.command);
            REQUIRE(example.problem.empty());
            auto words = example.words;
            REQUIRE(words.at(0) == "amdahl");
            words.erase(words.begin());
            for (auto& w : words) {  // relative paths in the README are from the repository root
                if (w.starts_with("examples/") || w.starts_with("tests/")) w = amdahl::test::source_path(w);
            }
            // Charts go to a scratch folder: the committed docs/img/ files are scripts/update-images',
            // made from the repository root, and a test must not rewrite them with this machine's paths.
            for (std::size_t i = 0; i + 1 < words.size(); ++i)
                if (words[i] == "--plot")
                    words[i + 1] = charts / std::filesystem::path(words[i + 1]).filename().string();
            const auto result = amdahl::test::run_cli(words);
            CHECK(relative_paths(result.out) == example.expected_out());
            CHECK(relative_paths(result.err) == example.expected_err());
            CHECK(result.exit_code == example.exit_code);
            ++checked;
            if (example.exit_code != 0) ++failing;
            if (example.stderr_lines > 0) ++with_stderr;
        }
    }
    CHECK(checked >= 8);
    // The README shows a failed gate and an input error, and notes on stderr.
    CHECK(failing >= 2);
    CHECK(with_stderr >= 2);
}
